import type { LiveState, ServerMessage } from "../../src/api/live.ts";

// What the live hub (liveHub.ts) is given: one socket's watch of one device, and the database
// side it listens and reads through. Sockets and SQL live behind these, never in the hub.

export interface Refusal {
  status: 401 | 403 | 404;
  message: string;
}

/** One socket's subscription to one device. `D` is the device as the loader reads it. */
export interface Watcher<D> {
  deviceId: number;
  /** The signed-in person whose session this watch rides on (none for a public page's). */
  userId?: number;
  /** Whether the device as just read still lets this watcher see it (its public hash, its subscription). */
  admits(device: D): boolean;
  /** Whether the watcher itself is still allowed (its session); null when it is. Asked at every heartbeat. */
  recheck(): Promise<Refusal | null>;
  /** The state message for this watcher's audience. */
  render(device: D, cause: LiveState["cause"]): ServerMessage;
  send(message: ServerMessage): void;
  /** Sends a heartbeat; false when the connection is dead (the hub then forgets it). */
  heartbeat(time: number): boolean;
  /** Ends the subscription with a refusal (and closes the socket). */
  refuse(refusal: Refusal): void;
  /** Closes the socket because this instance stops; the client reconnects elsewhere. */
  goAway(): void;
}

export interface LiveHubDeps<D> {
  /** Starts hearing announcements; `onResume` after announcements may have been missed. */
  listen(handlers: {
    onDevice(deviceId: number): void;
    onUser(userId: number): void;
    onResume(): void;
  }): Promise<{ close(): Promise<void> }>;
  /** The live fields of these devices, by id (a device that is gone is left out). */
  load(deviceIds: number[]): Promise<Map<number, D>>;
  /**
   * For the heartbeat: what `admits` looks at, without the readings (a cheaper read of every
   * watched device); `load` when absent. Never rendered.
   */
  loadAdmission?(deviceIds: number[]): Promise<Map<number, D>>;
  now(): Date;
  heartbeatMs: number;
  log?: (what: string, error: unknown) => void;
}
