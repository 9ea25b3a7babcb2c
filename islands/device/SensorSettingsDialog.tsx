import { useStore } from "@nanostores/react";
import { useId, useLayoutEffect, useState, type FormEvent } from "react";
import { LABEL_TOO_LONG, type ChannelGroup, type Sensor } from "../../src/api/devices.ts";
import { groupTitle } from "../../src/domain/dashboard.ts";
import { isAdjustableKind, isTemperatureKind } from "../../src/domain/device.ts";
import { LABEL_MAX } from "../../src/domain/labels.ts";
import { $device, $devicePrefs, $deviceRights } from "../../src/stores/device.ts";
import {
  $sensorSave,
  resetSensorSave,
  saveSensorSettings,
  sensorDraft,
  type SensorDraft,
} from "../../src/stores/sensorSettings.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog, DialogActions } from "../ui/Dialog.tsx";
import { Field, FormErrors } from "../ui/Field.tsx";
import { SignedField } from "../ui/SignedField.tsx";

/** The sensor and its group for a group key, from the shown device. */
function useGroup(key: string): { sensor: Sensor; group: ChannelGroup } | null {
  const state = useStore($device);
  if (state.status !== "success") return null;
  for (const sensor of state.device.sensors)
    for (const group of sensor.channelGroups) if (group.channelKey === key) return { sensor, group };
  return null;
}

/**
 * Sensor Settings, or Adapter Settings for a wired adapter (spec sections 2, 4, 5): label (max
 * 50, the server's message beside it), sensor type, an adjustment per adjustable channel in
 * the person's scale, the Show/Hide toggle, Close and Save (Enter saves; Save waits while a
 * save is out). Without sensor.edit everything is read-only.
 */
export default function SensorSettingsDialog({ groupKey, open, onClose }: Props) {
  const found = useGroup(groupKey);
  const { editSensors } = useStore($deviceRights);
  const save = useStore($sensorSave);
  const formId = useId();
  const title = found?.sensor.kind === "wired" ? "Adapter Settings" : "Sensor Settings";
  return (
    <Dialog
      title={title}
      open={open && found !== null}
      onClose={onClose}
      footer={
        <DialogActions onClose={onClose} className="settings-actions">
          {editSensors && (
            <BusyButton form={formId} busy={save.busy} busyLabel="Saving...">
              Save
            </BusyButton>
          )}
        </DialogActions>
      }
    >
      {found && <SettingsForm id={formId} title={title} {...found} onSaved={onClose} />}
    </Dialog>
  );
}

interface Props {
  groupKey: string;
  open: boolean;
  onClose: () => void;
}

interface FormProps {
  id: string;
  title: string;
  sensor: Sensor;
  group: ChannelGroup;
  onSaved: () => void;
}

/** The dialog's form, mounted afresh at each opening with the group's saved values. */
function SettingsForm({ id, title, sensor, group, onSaved }: FormProps) {
  const { scale } = useStore($devicePrefs);
  const { editSensors } = useStore($deviceRights);
  const save = useStore($sensorSave);
  const [draft, setDraft] = useState<SensorDraft>(() => sensorDraft(group, scale));
  const [edited, setEdited] = useState(false);
  useLayoutEffect(() => resetSensorSave(), []);
  const change = (next: Partial<SensorDraft>) => {
    setDraft({ ...draft, ...next });
    setEdited(true);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editSensors) return;
    // Spec section 4's edited flag: an unchanged form has nothing to send.
    if (!edited || (await saveSensorSettings(group.channelKey, draft))) onSaved();
  };
  const error = (field: string) => save.errors.find((x) => x.field === field)?.message;
  return (
    <form
      id={id}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`${title} of ${groupTitle(sensor, group)}`}
    >
      {!editSensors && <p className="muted">Your role can see these settings but not change them.</p>}
      <Field
        label="Label"
        value={draft.label}
        disabled={!editSensors}
        hint={`${draft.label.trim().length} of ${LABEL_MAX} characters`}
        error={draft.label.trim().length > LABEL_MAX ? LABEL_TOO_LONG : error("label")}
        onChange={(e) => change({ label: e.target.value })}
      />
      <p>
        Sensor type: <strong>{sensor.sensorType ?? "Unknown"}</strong>
      </p>
      <Adjustments
        group={group}
        draft={draft}
        disabled={!editSensors}
        scale={scale}
        error={error}
        onChange={change}
      />
      <label className="settings-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={!draft.isHidden}
          disabled={!editSensors}
          onChange={(e) => change({ isHidden: !e.target.checked })}
        />
        Show on the dashboard
      </label>
      <FormErrors messages={save.errors.filter((x) => x.field === null).map((x) => x.message)} />
    </form>
  );
}

interface AdjustProps {
  group: ChannelGroup;
  draft: SensorDraft;
  disabled: boolean;
  scale: "C" | "F";
  error: (field: string) => string | undefined;
  onChange: (next: Partial<SensorDraft>) => void;
}

/** One field per adjustable channel, temperatures in the person's scale. */
function Adjustments({ group, draft, disabled, scale, error, onChange }: AdjustProps) {
  const channels = group.channels.filter((c) => isAdjustableKind(c.kind));
  if (!channels.length) return <p className="muted">This sensor has no adjustable channels.</p>;
  return (
    <fieldset className="adjust-rows">
      <legend>Adjustments</legend>
      {channels.map((c) => {
        const units = isTemperatureKind(c.kind) ? `°${scale}` : (c.conversion.units ?? "");
        return (
          <div key={c.channelKey}>
            <SignedField
              label={`${c.name} adjustment${units ? ` (${units})` : ""}`}
              inputMode="decimal"
              value={draft.adjust[c.channelKey] ?? ""}
              disabled={disabled}
              error={error(`adjust:${c.channelKey}`)}
              onChange={(e) => onChange({ adjust: { ...draft.adjust, [c.channelKey]: e.target.value } })}
            />
          </div>
        );
      })}
    </fieldset>
  );
}
