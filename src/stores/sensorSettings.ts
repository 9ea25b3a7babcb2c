import { LABEL_TOO_LONG, updateSensor, type ChannelGroup } from "../api/devices.ts";
import type { FieldError } from "../api/errors.ts";
import type { Celsius } from "../domain/brand.ts";
import { isAdjustableKind, isTemperatureKind } from "../domain/device.ts";
import { LABEL_MAX } from "../domain/labels.ts";
import {
  adjustmentFromCelsius,
  adjustmentToCelsius,
  type InScale,
  type TemperatureScale,
} from "../domain/temperature.ts";
import { $devicePrefs, groupOfShown, refreshDevice } from "./device.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";

/* Sensor and Adapter Settings (spec sections 2, 4, 5, 8). */

export const SAVE_FAILED = "Failed to save settings";
export const SENSOR_SAVE_FAILED = "Failed to save sensor settings";
export const LABEL_SAVE_FAILED = "Failed to update sensor label";
export const ADJUST_NOT_NUMBER = "Adjustment must be a number.";

/** What the settings dialog edits: adjustments as typed, in the person's scale. */
export interface SensorDraft {
  label: string;
  isHidden: boolean;
  adjust: Record<string, string>;
}

/** The settings dialog's save: busy, and messages on `label`, `adjust:{channelKey}` or the form. */
export const $sensorSave = formStore();

/** A settings dialog opens without the last one's messages. */
export const resetSensorSave = () => $sensorSave.set({ busy: false, errors: [] });

/** The dialog's starting values: adjustable channels' offsets shown in the person's scale. */
export function sensorDraft(group: ChannelGroup, scale: TemperatureScale): SensorDraft {
  const adjust: Record<string, string> = {};
  for (const c of group.channels)
    if (isAdjustableKind(c.kind))
      adjust[c.channelKey] = String(
        isTemperatureKind(c.kind) ? adjustmentFromCelsius(c.adjust as Celsius, scale) : c.adjust,
      );
  return { label: group.label ?? "", isHidden: group.isHidden, adjust };
}

/** The adjustments to send, stored once in Celsius; field errors for what is not a number. */
function adjustments(group: ChannelGroup, draft: SensorDraft, scale: TemperatureScale) {
  const errors: FieldError[] = [];
  const channels = group.channels
    .filter((c) => isAdjustableKind(c.kind))
    .map((c) => {
      const text = (draft.adjust[c.channelKey] ?? "").trim();
      const value = text === "" ? 0 : Number(text);
      if (!Number.isFinite(value))
        errors.push({ field: `adjust:${c.channelKey}`, message: ADJUST_NOT_NUMBER });
      const adjust = isTemperatureKind(c.kind)
        ? adjustmentToCelsius(value as InScale<typeof scale>, scale)
        : value;
      return { channelKey: c.channelKey, adjust };
    });
  return { channels, errors };
}

/**
 * A failed save as the spec's messages: a label problem on the label field with 'Failed to
 * update sensor label'; an adjustment's beside its channel with 'Failed to save sensor
 * settings'; anything without such a message 'Failed to save settings'.
 */
export function saveFailure(e: unknown, sent: readonly { channelKey: string }[]): FieldError[] {
  const errors = errorsOf(e);
  const label = errors.filter((x) => x.field === "label");
  if (label.length) return [...label, { field: null, message: LABEL_SAVE_FAILED }];
  const channel = errors.flatMap((x) => {
    const index = /^channels\.(\d+)\./.exec(x.field ?? "")?.[1];
    const key = index === undefined ? undefined : sent[Number(index)]?.channelKey;
    return key ? [{ field: `adjust:${key}`, message: x.message }] : [];
  });
  if (channel.length) return [...channel, { field: null, message: SENSOR_SAVE_FAILED }];
  return [{ field: null, message: SAVE_FAILED }];
}

/** Saves a sensor's label, hidden flag and adjustments, then fetches the device again. */
export async function saveSensorSettings(key: string, draft: SensorDraft): Promise<boolean> {
  const group = groupOfShown(key);
  if (!group) {
    // The spec: missing channel data is logged and the save returns false.
    console.error(`Sensor settings: no channel data for ${key}`);
    $sensorSave.set({ busy: false, errors: [{ field: null, message: SAVE_FAILED }] });
    return false;
  }
  const label = draft.label.trim();
  // Nothing was sent, so nothing failed to update: the field's own message is the one error.
  if (label.length > LABEL_MAX) {
    $sensorSave.set({ busy: false, errors: [{ field: "label", message: LABEL_TOO_LONG }] });
    return false;
  }
  const { channels, errors } = adjustments(group, draft, $devicePrefs.get().scale);
  if (errors.length) {
    $sensorSave.set({ busy: false, errors: [...errors, { field: null, message: SENSOR_SAVE_FAILED }] });
    return false;
  }
  if ($sensorSave.get().busy) return false;
  $sensorSave.set({ busy: true, errors: [] });
  try {
    await call(updateSensor, { channelKey: key, channels, label, isHidden: draft.isHidden });
    await refreshDevice();
    $sensorSave.set({ busy: false, errors: [] });
    return true;
  } catch (e) {
    $sensorSave.set({ busy: false, errors: saveFailure(e, channels) });
    return false;
  }
}

/** The Hidden Sensors list's Show (or a card's Hide): the flag alone, empty channels. */
export const $hideSave = formStore();
export async function setSensorHidden(key: string, isHidden: boolean): Promise<boolean> {
  const saved = await formTask($hideSave, () =>
    call(updateSensor, { channelKey: key, channels: [], isHidden }),
  );
  if (!saved) $hideSave.setKey("errors", [{ field: null, message: SENSOR_SAVE_FAILED }]);
  else await refreshDevice();
  return saved;
}
