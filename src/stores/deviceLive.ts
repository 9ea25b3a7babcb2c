import { atom } from "nanostores";
import { patchDevice, refreshDevice } from "./device.ts";
import { mergeLive, watchDevice, type LiveConnection, type WatchOptions } from "./live.ts";

/** The live readings' connection of the shown device. */
export const $deviceLive = atom<LiveConnection>({ state: "stopped" });

/**
 * Follows the shown device live (src/stores/live.ts): each state lays its readings, last push
 * and batteries over the device; after a reconnect the details are fetched again for what
 * the live state does not carry (names, labels, hidden flags). Returns stop().
 */
export function followDevice(id: number, options?: WatchOptions): () => void {
  return watchDevice(
    { deviceId: id },
    {
      onState: (live) => patchDevice((d) => (d.general.id === live.deviceId ? mergeLive(d, live) : d)),
      onConnection: (connection) => $deviceLive.set(connection),
      onResume: () => void refreshDevice(),
    },
    options,
  );
}
