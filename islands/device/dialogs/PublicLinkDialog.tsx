import { useStore } from "@nanostores/react";
import { useId, useLayoutEffect } from "react";
import type { DeviceGeneral } from "../../../src/api/devices.ts";
import { $deviceRights } from "../../../src/stores/device.ts";
import {
  $copied,
  $planBlocks,
  $publicHash,
  $publicLinkTask,
  copyText,
  makePublicLink,
  publicLinkUrl,
  removePublicLink,
  showPublicLink,
} from "../../../src/stores/deviceDialogs.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Dialog, DialogActions } from "../../ui/Dialog.tsx";
import { FormErrors } from "../../ui/Field.tsx";
import type { DeviceDialogProps } from "../DeviceMenu.tsx";
import "../../../src/styles/devices.css";

export const EDITORS_ONLY = "Only an Administrator or a Manager can manage the public link.";

/**
 * Manage Public Link (spec sections 4, 6 and 7): create a link anyone can open without signing
 * in, copy it ('Copied!'), create it again (a new address; the old one stops working) or
 * delete it. Only ADMIN and MANAGER, and only where the plan has the public URL feature:
 * otherwise the dialog says why.
 */
export default function PublicLinkDialog({ device, open, onClose, onChanged }: DeviceDialogProps) {
  return (
    <Dialog title="Public Link" open={open} onClose={onClose} footer={<DialogActions onClose={onClose} />}>
      <PublicLinkBody device={device} onChanged={onChanged} />
    </Dialog>
  );
}

/** The dialog's content, mounted afresh at each opening with the device's current link. */
function PublicLinkBody({
  device,
  onChanged,
}: {
  device: DeviceGeneral;
  onChanged?: (() => void) | undefined;
}) {
  const { edit } = useStore($deviceRights);
  const blocked = useStore($planBlocks).publicUrl;
  const hash = useStore($publicHash);
  const task = useStore($publicLinkTask);
  // Again after the page refetches the device (its hash is then the one shown already).
  useLayoutEffect(() => showPublicLink(device.publicPageHash), [device.publicPageHash]);
  const messages = task.errors.map((x) => x.message);
  if (!edit) return <p className="muted">{EDITORS_ONLY}</p>;
  if (blocked && !hash) return <p className="plan-block">{blocked}</p>;
  const act = async (action: (id: number) => Promise<boolean>) => {
    if (await action(device.id)) onChanged?.();
  };
  return (
    <div className="public-link" aria-live="polite">
      {hash ? (
        <LinkShown url={publicLinkUrl(device.deviceType, hash)} />
      ) : (
        <p>This device has no public link. Create one to let anyone with the address see its readings.</p>
      )}
      {blocked && <p className="plan-block">{blocked}</p>}
      <FormErrors messages={messages} />
      <div className="button-row">
        {!blocked && (
          // With a link shown, Copy is what most come for; a new link breaks the current address.
          <BusyButton
            type="button"
            className={hash ? "secondary" : undefined}
            busy={task.busy}
            busyLabel="Working..."
            onClick={() => void act(makePublicLink)}
          >
            {hash ? "Create New Link" : "Create Public Link"}
          </BusyButton>
        )}
        {hash && (
          <BusyButton
            type="button"
            className="secondary outline"
            busy={task.busy}
            busyLabel="Working..."
            onClick={() => void act(removePublicLink)}
          >
            Delete Public Link
          </BusyButton>
        )}
      </div>
      {hash && !blocked && (
        <p className="muted">
          Creating a new link gives a new address: the current one stops working at once.
        </p>
      )}
    </div>
  );
}

/** The link in a read-only field, with Copy and its 'Copied!' tooltip. */
function LinkShown({ url }: { url: string }) {
  const copied = useStore($copied);
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Public link</label>
      <div className="copy-field" role="group" aria-label="Public link">
        <input id={id} type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <span className="copy-tip-anchor">
          <button type="button" onClick={() => void copyText(url)}>
            Copy
          </button>
          <span role="status" className={copied ? "copy-tip shown" : "copy-tip"}>
            {copied ? "Copied!" : ""}
          </span>
        </span>
      </div>
      <p>
        <a href={url} target="_blank" rel="noopener">
          Open the public page
        </a>{" "}
        <span className="muted">(opens in a new window)</span>
      </p>
    </>
  );
}
