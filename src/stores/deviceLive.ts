import { atom } from "nanostores";
import { patchDevice, refreshDevice } from "./device.ts";
import { mergeLive, watchDevice, type LiveConnection, type WatchOptions } from "./live.ts";
import { loadActiveAlarms } from "./alerts.ts";

/** The live readings' connection of the shown device. */
export const $deviceLive = atom<LiveConnection>({ state: "stopped" });

/**
 * Follows the shown device live (src/stores/live.ts): each state lays its readings, last push
 * and batteries over the device; after a reconnect the details are fetched again for what
 * the live state does not carry (names, labels, hidden flags). Returns stop().
 */
export function followDevice(id: number, options?: WatchOptions): () => void {
  void loadActiveAlarms(id);
  return watchDevice(
    { deviceId: id },
    {
      onState: (live) => {
        patchDevice((d) => (d.general.id === live.deviceId ? mergeLive(d, live) : d));
        // A push that moved an alarm committed with its readings: the alarm state is read anew.
        alarmsSoon(id);
      },
      onConnection: (connection) => $deviceLive.set(connection),
      onResume: () => void refreshDevice(),
    },
    options,
  );
}

/** At most one alarm read a second, however many pushes arrive. */
let alarmTimer: ReturnType<typeof setTimeout> | null = null;
function alarmsSoon(id: number) {
  if (alarmTimer) return;
  alarmTimer = setTimeout(() => {
    alarmTimer = null;
    void loadActiveAlarms(id);
  }, 1000);
}
