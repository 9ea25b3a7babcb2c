import type { Db } from "./db/client.ts";
import { listenDevices } from "./data/liveNotify.ts";
import { liveAdmissions, liveDevices, type LiveDevice } from "./data/liveState.ts";
import { createLiveHub, type LiveHub } from "./services/liveHub.ts";
import { HEARTBEAT_SECONDS } from "../src/api/live.ts";

/** The live readings hub of one instance, fed by the database's announcements. */
export type PortalLiveHub = LiveHub<LiveDevice>;

/** The hub with the database's LISTEN and device reads; tests may beat faster. */
export function defaultLiveHub(
  db: Db,
  now: () => Date,
  heartbeatMs = HEARTBEAT_SECONDS * 1000,
): PortalLiveHub {
  return createLiveHub<LiveDevice>({
    listen: (handlers) => listenDevices(db, handlers),
    load: (ids) => liveDevices(db, ids),
    loadAdmission: (ids) => liveAdmissions(db, ids),
    now,
    heartbeatMs,
  });
}
