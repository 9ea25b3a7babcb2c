import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { DeviceListItem } from "../../src/api/devices.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { $tagDevices, showAppliedTags } from "../../src/stores/tags.ts";
import UpdateTagsDialog from "./UpdateTagsDialog.tsx";
import { appPath } from "../../src/domain/appPaths.ts";

/**
 * The subscription's devices with their tags; Administrators and Managers change a device's
 * tags here with the same Update Tags dialog the device page opens.
 */
export function DeviceTags({ editable }: { editable: boolean }) {
  const state = useStore($tagDevices);
  const [device, setDevice] = useState<DeviceListItem | null>(null);
  if (state.status === "loading") return <p aria-busy="true">Loading devices...</p>;
  if (state.status === "failed")
    return (
      <p role="alert" className="form-error">
        Devices could not be loaded: {state.message}
      </p>
    );
  if (!state.list.length) return <p className="muted">No devices yet.</p>;
  return (
    <>
      <ul className="tag-devices">
        {state.list.map((d) => (
          <li key={d.id}>
            <a href={appPath("deviceDetails", { id: d.id })}>{d.name}</a>
            <span className="tag-list">
              {d.tagList.length ? d.tagList.map((t) => <span key={t.id}>{t.name}</span>) : "No tags"}
            </span>
            {editable && (
              <button
                type="button"
                className="secondary outline"
                aria-label={`Update tags of ${d.name}`}
                onClick={() => setDevice(d)}
              >
                Update Tags
              </button>
            )}
          </li>
        ))}
      </ul>
      {editable && (
        <UpdateTagsDialog
          open={device !== null}
          onClose={() => setDevice(null)}
          entityType={EntityType.DEVICE}
          entityIds={device ? [device.id] : []}
          appliedTagIds={device ? device.tagList.map((t) => t.id) : []}
          onApplied={showAppliedTags}
        />
      )}
    </>
  );
}
