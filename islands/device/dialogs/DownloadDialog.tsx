import { useStore } from "@nanostores/react";
import { useId, useLayoutEffect, useState, type FormEvent } from "react";
import type { DeviceGeneral } from "../../../src/api/devices.ts";
import { $download, $planBlocks, fetchDeviceCsv } from "../../../src/stores/deviceDialogs.ts";
import { zonedInput, type RangeDraft } from "../../../src/stores/explore.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Dialog, DialogActions } from "../../ui/Dialog.tsx";
import { saveFile } from "../../ui/saveFile.ts";
import { FormErrors } from "../../ui/Field.tsx";
import { RangeFields } from "../../explore/RangeFields.tsx";
import type { DeviceDialogProps } from "../DeviceMenu.tsx";
import "../../../src/styles/devices.css";

/**
 * The Download Data dialog (spec section 2; the menu item reads Download Device Data; sections 7 and 9): the last 24 hours unless another range is
 * chosen, times in UTC; the CSV arrives under the server's file name. Everyone may download,
 * where the plan has the CSV export feature; otherwise the dialog says why.
 */
export default function DownloadDialog({ device, open, onClose }: DeviceDialogProps) {
  const form = useStore($download);
  const blocked = useStore($planBlocks).csvExport;
  const formId = useId();
  return (
    <Dialog
      title="Download Data"
      open={open}
      onClose={onClose}
      footer={
        <DialogActions onClose={onClose}>
          {!blocked && (
            <BusyButton form={formId} busy={form.busy} busyLabel="Downloading...">
              Download
            </BusyButton>
          )}
        </DialogActions>
      }
    >
      {blocked ? <p className="plan-block">{blocked}</p> : <DownloadForm id={formId} device={device} />}
    </Dialog>
  );
}

/** The range form, mounted afresh at each opening on the last 24 hours. */
function DownloadForm({ id, device }: { id: string; device: DeviceGeneral }) {
  const form = useStore($download);
  const [draft, setDraft] = useState<RangeDraft>(() => {
    const now = Date.now() / 1000;
    return { preset: "24h", from: zonedInput(now - 86_400, "UTC"), to: zonedInput(now, "UTC") };
  });
  const [saved, setSaved] = useState<string | null>(null);
  useLayoutEffect(() => $download.set({ busy: false, errors: [] }), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const file = await fetchDeviceCsv(device.id, draft, Date.now() / 1000);
    if (!file) return;
    saveFile(file.blob, file.fileName);
    setSaved(file.fileName);
  };
  return (
    <form id={id} noValidate onSubmit={(e) => void submit(e)} aria-label={`Data range of ${device.name}`}>
      <p className="muted">The readings of {device.name} as a CSV file, one row per time, times in UTC.</p>
      <RangeFields draft={draft} zoneLabel="UTC" errors={form.errors} onChange={setDraft} />
      <FormErrors messages={form.errors.filter((x) => x.field === null).map((x) => x.message)} />
      <p role="status" className="muted">
        {saved ? `Downloaded ${saved}.` : ""}
      </p>
    </form>
  );
}
