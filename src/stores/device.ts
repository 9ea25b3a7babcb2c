import { atom, computed } from "nanostores";
import {
  getDeviceDetails,
  LABEL_TOO_LONG,
  updateDevice,
  updateSensor,
  type ChannelGroup,
  type DeviceDetails,
  type DeviceGeneral,
} from "../api/devices.ts";
import type { FieldError } from "../api/errors.ts";
import type { Celsius } from "../domain/brand.ts";
import { isAdjustableKind, isTemperatureKind } from "../domain/device.ts";
import { DEVICE_LOAD_FAILED, NO_DEVICE_ID } from "../domain/deviceView.ts";
import { LABEL_MAX, titleToSave } from "../domain/labels.ts";
import { roleMay } from "../domain/permissions.ts";
import { isRoleId } from "../domain/roles.ts";
import {
  adjustmentFromCelsius,
  adjustmentToCelsius,
  resolveTemperatureScale,
  type InScale,
  type TemperatureScale,
} from "../domain/temperature.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { mergeLive, watchDevice, type LiveConnection, type WatchOptions } from "./live.ts";
import { $session } from "./session.ts";

/** Spec section 4, device load state: idle, pending, success, error. */
export type DeviceState =
  | { status: "idle" }
  | { status: "pending"; id: number }
  | { status: "success"; id: number; device: DeviceDetails }
  | { status: "error"; message: string };

/** The device the signed-in device page shows. */
export const $device = atom<DeviceState>({ status: "idle" });
/** The editable name's save: busy and the message beside it. */
export const $rename = formStore();

/** The person's temperature scale and time zone (UTC when unknown). */
export const $devicePrefs = computed($session, (s): { scale: TemperatureScale; zone: string } => {
  if (s.status !== "signedIn") return { scale: "C", zone: "UTC" };
  const zone = s.info.timezone;
  return {
    scale: resolveTemperatureScale(s.info.temperatureScale),
    zone: isKnownTimezone(zone) ? zone : "UTC",
  };
});

/** What the signed-in person may do on the page (the server checks each call again). */
export const $deviceRights = computed($session, (s) => {
  const role = s.status === "signedIn" ? s.info.activeSubscription.role.id : 0;
  const known = isRoleId(role);
  return {
    /** Name, tags, location and public link: ADMIN and MANAGER only (spec section 6). */
    edit: known && roleMay(role, "device.edit"),
    editSensors: known && roleMay(role, "sensor.edit"),
    download: known && roleMay(role, "device.download"),
    features: s.status === "signedIn" ? s.info.activeSubscription.tier.features : {},
  };
});

let asked = 0;

/** Loads the device of the address (its id as text); 'No device ID provided.' without one. */
export async function loadDevice(idText: string | undefined) {
  const ask = ++asked;
  const id = Number(idText);
  if (!idText) return $device.set({ status: "error", message: NO_DEVICE_ID });
  if (!/^\d{1,10}$/.test(idText) || id < 1)
    return $device.set({ status: "error", message: DEVICE_LOAD_FAILED });
  $device.set({ status: "pending", id });
  try {
    const { device } = await call(getDeviceDetails, undefined, { deviceId: id });
    // A later load (another device's page) wins over this one.
    if (ask === asked) $device.set({ status: "success", id, device });
  } catch {
    if (ask === asked) $device.set({ status: "error", message: DEVICE_LOAD_FAILED });
  }
}

/** Asks for the shown device again (after a save), keeping it on screen meanwhile. */
export async function refreshDevice(): Promise<boolean> {
  const state = $device.get();
  if (state.status !== "success") return false;
  const ask = asked;
  try {
    const { device } = await call(getDeviceDetails, undefined, { deviceId: state.id });
    if (ask === asked) $device.set({ ...state, device });
    return true;
  } catch {
    return false;
  }
}

/** The shown device, or null. */
export function shownDevice(): DeviceDetails | null {
  const state = $device.get();
  return state.status === "success" ? state.device : null;
}

/** Replaces parts of the shown device (a saved name, applied tags, a live push). */
export function patchDevice(update: (device: DeviceDetails) => DeviceDetails) {
  const state = $device.get();
  if (state.status === "success") $device.set({ ...state, device: update(state.device) });
}

/** The live readings' connection of the shown device. */
export const $deviceLive = atom<LiveConnection>({ state: "stopped" });

/**
 * Follows the shown device live (src/stores/live.ts): each state lays its readings, last push
 * and batteries over the device; after a reconnect the details are fetched again for what
 * the live state does not carry (names, labels, hidden flags). Returns stop().
 */
export function followDevice(id: number, options?: WatchOptions): () => void {
  return watchDevice(
    { deviceId: id },
    {
      onState: (live) => patchDevice((d) => (d.general.id === live.deviceId ? mergeLive(d, live) : d)),
      onConnection: (connection) => $deviceLive.set(connection),
      onResume: () => void refreshDevice(),
    },
    options,
  );
}

/** Changes the shown device's general fields. */
export const patchGeneral = (fields: Partial<DeviceGeneral>) =>
  patchDevice((d) => ({ ...d, general: { ...d.general, ...fields } }));

/**
 * The editable name (spec section 4): saves when the trimmed draft is non-empty and changed.
 * Resolves with the name to show: the saved one, or the current one when nothing was saved.
 */
export async function renameDevice(draft: string): Promise<{ saved: boolean; name: string }> {
  const device = shownDevice();
  if (!device) return { saved: false, name: draft };
  const name = titleToSave(draft, device.general.name);
  if (name === null) {
    $rename.set({ busy: false, errors: [] });
    return { saved: false, name: device.general.name };
  }
  const saved = await formTask($rename, async () => {
    const answer = await call(updateDevice, { name }, { deviceId: device.general.id });
    patchGeneral({ name: answer.name });
  });
  return { saved, name: saved ? name : draft };
}

/** The channel group of the shown device with this key, or null. */
export function groupOfShown(key: string): ChannelGroup | null {
  return (
    shownDevice()
      ?.sensors.flatMap((s) => s.channelGroups)
      .find((g) => g.channelKey === key) ?? null
  );
}

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
  if (label.length > LABEL_MAX) {
    $sensorSave.set({
      busy: false,
      errors: [
        { field: "label", message: LABEL_TOO_LONG },
        { field: null, message: LABEL_SAVE_FAILED },
      ],
    });
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
