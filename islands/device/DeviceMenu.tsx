import { useStore } from "@nanostores/react";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { DeviceGeneral } from "../../src/api/devices.ts";
import { $deviceRights, refreshDevice } from "../../src/stores/device.ts";
import { EllipsisVertical } from "./icons.ts";

/** The props every header dialog takes (islands/device/dialogs/*, helper DU2's). */
export interface DeviceDialogProps {
  device: DeviceGeneral;
  open: boolean;
  onClose: () => void;
  onChanged?: () => void;
}

// Each dialog's code loads only when its item is first chosen.
const LocationDialog = lazy(() => import("./dialogs/LocationDialog.tsx"));
const PublicLinkDialog = lazy(() => import("./dialogs/PublicLinkDialog.tsx"));
const DownloadDialog = lazy(() => import("./dialogs/DownloadDialog.tsx"));

const ITEMS = [
  { label: "Update Location", module: LocationDialog, editorsOnly: true },
  { label: "Manage Public Link", module: PublicLinkDialog, editorsOnly: true },
  { label: "Download Device Data", module: DownloadDialog, editorsOnly: false },
];

/**
 * The header's menu (spec sections 2 and 6): Manage Public Link and Update Location for ADMIN
 * and MANAGER, Download Device Data for everyone. A disclosure: Escape or a choice closes it.
 */
export function DeviceMenu({ device }: { device: DeviceGeneral }) {
  const rights = useStore($deviceRights);
  const [expanded, setExpanded] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [openedOnce, setOpenedOnce] = useState<string[]>([]);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = ITEMS.filter((i) => rights.edit || !i.editorsOnly);
  useEffect(() => {
    if (!expanded) return;
    const outside = (e: Event) => root.current?.contains(e.target as Node) || setExpanded(false);
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [expanded]);
  if (!items.length) return null;
  const choose = (label: string) => {
    // The dialog gives focus back to what had it: the menu button, not the item it hides.
    button.current?.focus();
    setExpanded(false);
    setChosen(label);
    if (!openedOnce.includes(label)) setOpenedOnce([...openedOnce, label]);
  };
  return (
    <div
      className="device-menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !expanded) return;
        e.preventDefault();
        setExpanded(false);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        className="secondary outline"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded(!expanded)}
      >
        <EllipsisVertical size="1em" /> Device actions
      </button>
      <ul id={listId} hidden={!expanded}>
        {items.map((i) => (
          <li key={i.label}>
            <button type="button" onClick={() => choose(i.label)}>
              {i.label}
            </button>
          </li>
        ))}
      </ul>
      {items.map(({ label, module: Dialog }) =>
        openedOnce.includes(label) ? (
          <Suspense key={label} fallback={null}>
            <Dialog
              device={device}
              open={chosen === label}
              onClose={() => setChosen(null)}
              onChanged={() => void refreshDevice()}
            />
          </Suspense>
        ) : null,
      )}
    </div>
  );
}
