import { useStore } from "@nanostores/react";
import { useId, useLayoutEffect, useState, type FormEvent } from "react";
import type { DeviceGeneral } from "../../../src/api/devices.ts";
import {
  $locationSave,
  locationDraftOf,
  saveLocation,
  type LocationDraft,
} from "../../../src/stores/deviceDialogs.ts";
import { DEVICE_MAP_PATH } from "../../../src/stores/devices.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { Field, FormErrors } from "../../ui/Field.tsx";
import { SignedField } from "../../ui/SignedField.tsx";
import type { DeviceDialogProps } from "../DeviceMenu.tsx";
import "../../../src/styles/devices.css";

/**
 * Update Location (spec sections 2, 5 and 7): location text or latitude and longitude, trimmed;
 * Save sends them, Go to Map opens the subscription's device map.
 */
export default function LocationDialog({ device, open, onClose, onChanged }: DeviceDialogProps) {
  const form = useStore($locationSave);
  const formId = useId();
  return (
    <Dialog
      title="Update Location"
      open={open}
      onClose={onClose}
      footer={
        <div className="button-row dialog-actions">
          <a href={DEVICE_MAP_PATH} className="secondary">
            Go to Map
          </a>
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
          <BusyButton form={formId} busy={form.busy} busyLabel="Saving...">
            Save
          </BusyButton>
        </div>
      }
    >
      <LocationForm
        id={formId}
        device={device}
        onSaved={() => {
          onChanged?.();
          onClose();
        }}
      />
    </Dialog>
  );
}

interface FormProps {
  id: string;
  device: DeviceGeneral;
  onSaved: () => void;
}

/** The form, mounted afresh at each opening with the device's saved location. */
function LocationForm({ id, device, onSaved }: FormProps) {
  const form = useStore($locationSave);
  const [draft, setDraft] = useState<LocationDraft>(() => locationDraftOf(device));
  useLayoutEffect(() => $locationSave.set({ busy: false, errors: [] }), []);
  const change = (next: Partial<LocationDraft>) => setDraft({ ...draft, ...next });
  const error = (field: string) => form.errors.find((x) => x.field === field)?.message;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await saveLocation(device.id, draft)) onSaved();
  };
  return (
    <form id={id} noValidate onSubmit={(e) => void submit(e)} aria-label={`Location of ${device.name}`}>
      <p className="muted">Describe where the device is, give its coordinates, or both.</p>
      <Field
        label="Location"
        value={draft.location}
        maxLength={200}
        autoComplete="off"
        hint="For example: Building 2, Lab 204."
        error={error("location")}
        onChange={(e) => change({ location: e.target.value })}
      />
      <fieldset className="grid coordinates">
        <legend>Coordinates (decimal degrees)</legend>
        <div>
          <SignedField
            label="Latitude"
            inputMode="decimal"
            value={draft.lat}
            hint="From -90 to 90."
            error={error("lat")}
            onChange={(e) => change({ lat: e.target.value })}
          />
        </div>
        <div>
          <SignedField
            label="Longitude"
            inputMode="decimal"
            value={draft.lng}
            hint="From -180 to 180."
            error={error("lng")}
            onChange={(e) => change({ lng: e.target.value })}
          />
        </div>
      </fieldset>
      <FormErrors messages={form.errors.filter((x) => x.field === null).map((x) => x.message)} />
    </form>
  );
}
