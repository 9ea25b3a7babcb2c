import { useStore } from "@nanostores/react";
import { lazy, Suspense, useState } from "react";
import type { DeviceGeneral } from "../../src/api/devices.ts";
import { $deviceRights, refreshDevice } from "../../src/stores/device.ts";
import { appPath } from "../../src/domain/appPaths.ts";
import { $session } from "../../src/stores/session.ts";
import { sessionMay } from "../../src/stores/tags.ts";
import { EllipsisVertical } from "./icons.ts";
import { useMenuButton } from "../ui/useMenuButton.ts";

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
 * and MANAGER, Download Device Data for everyone, Device History (the audit trail's rows of this
 * device) for Administrators. A disclosure menu button (islands/ui/useMenuButton.ts): Escape or a choice closes it.
 */
export function DeviceMenu({ device }: { device: DeviceGeneral }) {
  const rights = useStore($deviceRights);
  const menu = useMenuButton();
  const [chosen, setChosen] = useState<string | null>(null);
  const [openedOnce, setOpenedOnce] = useState<string[]>([]);
  useStore($session);
  const items = ITEMS.filter((i) => rights.edit || !i.editorsOnly);
  // The device's own history, from the audit trail (Administrators read it).
  const history = sessionMay("audit.view");
  if (!items.length && !history) return null;
  const choose = (label: string) => {
    // The dialog gives focus back to what had it: the menu button, not the item it hides.
    menu.close();
    setChosen(label);
    if (!openedOnce.includes(label)) setOpenedOnce([...openedOnce, label]);
  };
  return (
    <div className="device-menu" {...menu.rootProps}>
      <button {...menu.buttonProps} className="secondary outline">
        <EllipsisVertical size="1em" /> Device actions
      </button>
      <ul {...menu.listProps}>
        {items.map((i) => (
          <li key={i.label}>
            <button type="button" onClick={() => choose(i.label)}>
              {i.label}
            </button>
          </li>
        ))}
        {history && (
          <li>
            <a href={`${appPath("audit")}?deviceId=${device.id}`}>Device History</a>
          </li>
        )}
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
