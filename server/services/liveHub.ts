import type { LiveState, ServerMessage } from "../../src/api/live.ts";

/*
 * The live readings' fan-out inside one server instance: who watches which device, what to
 * send when a device is announced (by this instance or another, through the database), and
 * the heartbeat. It knows neither sockets nor SQL: both come in through the interfaces below.
 */

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
  /** The device's live fields, or null when it is gone. */
  load(deviceId: number): Promise<D | null>;
  now(): Date;
  heartbeatMs: number;
  log?: (what: string, error: unknown) => void;
}

export const GONE: Refusal = { status: 404, message: "Not found." };

export type LiveHub<D> = ReturnType<typeof createLiveHub<D>>;

/** The hub: listens lazily (on the first watcher), so building an app touches no database. */
export function createLiveHub<D>(deps: LiveHubDeps<D>) {
  const watchers = new Map<number, Set<Watcher<D>>>();
  const chains = new Map<number, Promise<void>>();
  const queued = new Set<number>();
  let listening: Promise<{ close(): Promise<void> }> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const log =
    deps.log ??
    ((what, error) => console.error(JSON.stringify({ level: "error", what, error: String(error) })));

  const forget = (w: Watcher<D>) => {
    const set = watchers.get(w.deviceId);
    set?.delete(w);
    if (set?.size === 0) watchers.delete(w.deviceId);
  };
  const refuse = (w: Watcher<D>, refusal: Refusal) => {
    forget(w);
    w.refuse(refusal);
  };

  /** Reads the device once and tells each of its watchers (or refuses those it no longer admits). */
  async function tell(deviceId: number, cause: LiveState["cause"]) {
    const device = await deps.load(deviceId);
    for (const w of Array.from(watchers.get(deviceId) ?? [])) {
      if (!device || !w.admits(device)) refuse(w, GONE);
      else w.send(w.render(device, cause));
    }
  }

  /** Runs the device's reads one after another, so its watchers get states in order. */
  function serial(deviceId: number, task: () => Promise<void>): Promise<void> {
    const run = (chains.get(deviceId) ?? Promise.resolve()).then(task).catch((e) => log("live", e));
    chains.set(deviceId, run);
    void run.then(() => chains.get(deviceId) === run && chains.delete(deviceId));
    return run;
  }

  /** Announcements that arrive while a read is queued share that read. */
  function refresh(deviceId: number): Promise<void> {
    if (queued.has(deviceId) || closed) return chains.get(deviceId) ?? Promise.resolve();
    queued.add(deviceId);
    return serial(deviceId, async () => {
      queued.delete(deviceId);
      await tell(deviceId, "push");
    });
  }

  /**
   * Every heartbeat: reads each watched device again (a deleted or regenerated public link, a
   * device moved away), asks each watcher whether its session still holds, then beats.
   */
  function beat() {
    const time = Math.floor(deps.now().getTime() / 1000);
    return Promise.all([...watchers.keys()].map((id) => serial(id, () => beatDevice(id, time))));
  }

  async function beatDevice(deviceId: number, time: number) {
    const device = await deps.load(deviceId);
    for (const w of Array.from(watchers.get(deviceId) ?? [])) {
      const refusal = !device || !w.admits(device) ? GONE : await w.recheck().catch(() => null);
      if (refusal) refuse(w, refusal);
      else if (!w.heartbeat(time)) forget(w);
    }
  }

  /** Asks every watch of this person whether its session holds, now (a session of theirs ended). */
  function recheckUser(userId: number) {
    const mine = [...watchers.values()].flatMap((set) => [...set].filter((w) => w.userId === userId));
    return Promise.all(
      mine.map((w) =>
        serial(w.deviceId, async () => {
          const refusal = await w.recheck().catch(() => null);
          if (refusal && watchers.get(w.deviceId)?.has(w)) refuse(w, refusal);
        }),
      ),
    );
  }

  function listen() {
    listening ??= deps
      .listen({
        onDevice: (id) => void (watchers.has(id) && refresh(id)),
        onUser: (id) => void recheckUser(id),
        onResume: () => [...watchers.keys()].forEach((id) => void refresh(id)),
      })
      .catch((e) => {
        listening = null;
        throw e;
      });
    if (!timer) {
      timer = setInterval(() => void beat(), deps.heartbeatMs);
      timer.unref();
    }
    return listening;
  }

  return {
    /**
     * Adds a watcher and sends it the device's current state; listening starts first, so a
     * push between the read and the subscription cannot be missed.
     */
    async watch(w: Watcher<D>): Promise<void> {
      if (closed) return w.goAway();
      await listen();
      const set = watchers.get(w.deviceId) ?? new Set();
      watchers.set(w.deviceId, set.add(w));
      await serial(w.deviceId, async () => {
        if (!set.has(w)) return;
        const device = await deps.load(w.deviceId);
        if (!device || !w.admits(device)) refuse(w, GONE);
        else w.send(w.render(device, "subscribe"));
      });
    },
    /** Drops a watcher (its socket closed or it subscribed to something else). */
    unwatch: forget,
    /** Reads a device and tells its watchers now, as an announcement does. */
    refresh,
    /** Runs a heartbeat now (tests; the timer does it every heartbeatMs). */
    beat,
    /** How many watchers the instance has. */
    size: () => [...watchers.values()].reduce((n, set) => n + set.size, 0),
    /** Stops listening and closes every socket with "going away". */
    async close() {
      closed = true;
      clearInterval(timer);
      for (const set of watchers.values()) for (const w of set) w.goAway();
      watchers.clear();
      const l = await listening?.catch(() => null);
      await l?.close();
    },
  };
}
