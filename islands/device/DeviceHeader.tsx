import { useStore } from "@nanostores/react";
import { lazy, Suspense, useState } from "react";
import type { DeviceGeneral } from "../../src/api/devices.ts";
import type { EntityTags } from "../../src/api/tags.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { deviceStatus } from "../../src/domain/device.ts";
import { STATUS_BADGE } from "../../src/domain/deviceView.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { $deviceRights, patchGeneral } from "../../src/stores/device.ts";
import { DeviceMenu } from "./DeviceMenu.tsx";
import { DeviceName } from "./DeviceName.tsx";
import { useNow } from "./useNow.ts";

const UpdateTagsDialog = lazy(() => import("../tags/UpdateTagsDialog.tsx"));

/** The device's tags as chips; 'No tags' when it has none. */
export function TagChips({ tags }: { tags: DeviceGeneral["tagList"] }) {
  return (
    <ul className="tag-chips">
      {tags.length ? tags.map((t) => <li key={t.id}>{t.name}</li>) : <li className="muted">No tags</li>}
    </ul>
  );
}

/**
 * The device header (spec sections 2 and 6): for ADMIN and MANAGER the editable name and
 * Update Tags; for everyone else the name as text; the location and the menu.
 */
export function DeviceHeader({ device }: { device: DeviceGeneral }) {
  const { edit } = useStore($deviceRights);
  const [tagsOpen, setTagsOpen] = useState(false);
  const [tagsLoaded, setTagsLoaded] = useState(false);
  const now = useNow();
  const status =
    STATUS_BADGE[deviceStatus(device.lastMessageTimestamp as EpochSeconds | null, device.pushInterval, now)];
  const applied = (entities: EntityTags[]) => {
    const mine = entities.find((e) => e.entityId === device.id);
    if (mine) patchGeneral({ tagList: mine.tagList });
  };
  return (
    <header className="device-header">
      {edit ? (
        <DeviceName name={device.name} />
      ) : (
        <h1 id="device-name" className="device-title">
          {device.name}
        </h1>
      )}
      <DeviceMenu device={device} />
      <dl className="device-meta">
        <div>
          <dt>Type</dt>
          <dd>{device.deviceType}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge badge-${status.tone}`}>{status.label}</span>
          </dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>
            <TagChips tags={device.tagList} />
            {edit && (
              <button
                type="button"
                className="secondary outline"
                aria-haspopup="dialog"
                onClick={() => {
                  setTagsLoaded(true);
                  setTagsOpen(true);
                }}
              >
                Update Tags
              </button>
            )}
          </dd>
        </div>
        <div>
          <dt>Location</dt>
          <dd>{device.location ?? "No location"}</dd>
        </div>
      </dl>
      {tagsLoaded && (
        <Suspense fallback={null}>
          <UpdateTagsDialog
            open={tagsOpen}
            onClose={() => setTagsOpen(false)}
            entityType={EntityType.DEVICE}
            entityIds={[device.id]}
            appliedTagIds={device.tagList.map((t) => t.id)}
            onApplied={applied}
          />
        </Suspense>
      )}
    </header>
  );
}
