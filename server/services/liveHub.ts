/*
 * The live readings' fan-out inside one server instance: who watches which device, what to
 * send when a device is announced (by this instance or another, through the database), and
 * the heartbeat. It knows neither sockets nor SQL: both come in through liveWatcher.ts.
 */

export type { LiveHubDeps, Refusal, Watcher } from "./liveWatcher.ts";
import type { LiveHubDeps, Refusal, Watcher } from "./liveWatcher.ts";

export const GONE: Refusal = { status: 404, message: "Not found." };
/**
 * Session checks a heartbeat asks at once: the portal answers those asked together with one
 * query (server/data/sessionBatch.ts); the others wait, so a heartbeat over thousands of
 * signed-in sockets never queues thousands of reads ahead of the pushes' announcements.
 */
export const RECHECKS_AT_ONCE = 500;

/**
 * Rounds that may run at once: a round waiting on the database does not hold back devices
 * announced meanwhile, while each device is in at most one of them.
 */
export const ROUNDS_AT_ONCE = 4;

export type LiveHub<D> = ReturnType<typeof createLiveHub<D>>;

/** What the next round does for one device: tell its watchers of a push, and/or greet new ones. */
type Due<D> = { push: boolean; fresh: Set<Watcher<D>>; served: (() => void)[] };

/** Runs `work` on every item, at most `n` at a time. */
async function atMost<T>(n: number, items: T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
}

/**
 * The hub: listens lazily (on the first watcher), so building an app touches no database.
 *
 * Announcements and new watchers wait in `due` for the next round; a round reads all their
 * devices in one query and tells each device's watchers. A device is in one round at a time,
 * so its states go out in order, and its announcements arriving during that round share its
 * next one; at most ROUNDS_AT_ONCE rounds run, so under a burst the reads stay a few per
 * moment, not one per announcement (docs/scaling.md).
 */
export function createLiveHub<D>(deps: LiveHubDeps<D>) {
  const watchers = new Map<number, Set<Watcher<D>>>();
  /** Watchers added but not yet sent their subscribe state: pushes skip them until then. */
  const greeting = new Set<Watcher<D>>();
  const due = new Map<number, Due<D>>();
  /** Devices whose round is running: they wait for the next one, so their states stay in order. */
  const serving = new Set<number>();
  let rounds = 0;
  let beating: Promise<void> | null = null;
  let listening: Promise<{ close(): Promise<void> }> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const log =
    deps.log ??
    ((what, error) => console.error(JSON.stringify({ level: "error", what, error: String(error) })));

  const forget = (w: Watcher<D>) => {
    greeting.delete(w);
    const set = watchers.get(w.deviceId);
    set?.delete(w);
    if (set?.size === 0) watchers.delete(w.deviceId);
  };
  /**
   * A session check that failed (the database away or slow): the watcher stays, counted on
   * /metrics. Closing every socket of the instance at once would bring them all back to
   * reconnect against the same database the moment it returns; no push reaches a watcher
   * meanwhile anyway (pushes need the database too), and the next heartbeat asks again.
   */
  let recheckErrors = 0;
  const recheckFailed = (): null => {
    recheckErrors++;
    return null;
  };
  const refuse = (w: Watcher<D>, refusal: Refusal) => {
    forget(w);
    w.refuse(refusal);
  };

  /** Reads the devices of one round and tells their watchers (or refuses those no longer admitted). */
  async function serve(batch: Map<number, Due<D>>) {
    const ids = [...batch.keys()].filter((id) => watchers.has(id));
    if (!ids.length) return;
    const devices = await deps.load(ids);
    for (const id of ids) {
      const { push, fresh } = batch.get(id)!;
      const device = devices.get(id) ?? null;
      for (const w of Array.from(watchers.get(id) ?? [])) {
        const greet = fresh.has(w);
        if (!greet && (!push || greeting.has(w))) continue;
        if (greet) greeting.delete(w);
        if (!device || !w.admits(device)) refuse(w, GONE);
        else w.send(w.render(device, greet ? "subscribe" : "push"));
      }
    }
  }

  /**
   * Starts rounds (at most ROUNDS_AT_ONCE) for what is due, a device whose round runs held
   * back for the next one; each round ends by starting the next.
   */
  function kick() {
    if (closed) {
      for (const d of due.values()) d.served.forEach((done) => done());
      due.clear();
      return;
    }
    while (rounds < ROUNDS_AT_ONCE) {
      const batch = new Map([...due].filter(([id]) => !serving.has(id)));
      if (!batch.size) return;
      for (const id of batch.keys()) {
        due.delete(id);
        serving.add(id);
      }
      rounds++;
      void serve(batch)
        .catch((e) => log("live", e))
        .finally(() => {
          rounds--;
          for (const [id, d] of batch) {
            serving.delete(id);
            d.served.forEach((done) => done());
          }
          kick();
        });
    }
  }

  /** Kicks once what this turn announces is all due: announcements heard together share a round. */
  let kicking = false;
  const soon = () => {
    if (kicking) return;
    kicking = true;
    queueMicrotask(() => {
      kicking = false;
      kick();
    });
  };

  /** The device's entry in what is due, and a promise settled once the round serving it ends. */
  const dueFor = (deviceId: number) => {
    const d = due.get(deviceId) ?? { push: false, fresh: new Set<Watcher<D>>(), served: [] };
    due.set(deviceId, d);
    const served = new Promise<void>((resolve) => d.served.push(resolve));
    return { d, served };
  };

  /** An announcement: the device's watchers get its state in the next round. */
  function refresh(deviceId: number): Promise<void> {
    if (closed) return Promise.resolve();
    const { d, served } = dueFor(deviceId);
    d.push = true;
    soon();
    return served;
  }

  /**
   * Every heartbeat: reads each watched device again (a deleted or regenerated public link, a
   * device moved away) in one query, asks each watcher whether its session still holds (a few
   * at a time), then beats. A heartbeat still running when the next is due lets it pass.
   */
  function beat(): Promise<void> {
    beating ??= beatAll()
      .catch((e) => log("live", e))
      .finally(() => (beating = null));
    return beating;
  }

  async function beatAll() {
    const time = Math.floor(deps.now().getTime() / 1000);
    const ids = [...watchers.keys()];
    if (!ids.length) return;
    // Only what `admits` looks at: every watched device each beat, so the cheaper read.
    const devices = await (deps.loadAdmission ?? deps.load)(ids);
    const asked: Watcher<D>[] = [];
    for (const id of ids)
      for (const w of Array.from(watchers.get(id) ?? [])) {
        const device = devices.get(id);
        if (!device || !w.admits(device)) refuse(w, GONE);
        else asked.push(w);
      }
    await atMost(RECHECKS_AT_ONCE, asked, async (w) => {
      const refusal = await w.recheck().catch(recheckFailed);
      if (!watchers.get(w.deviceId)?.has(w)) return;
      if (refusal) refuse(w, refusal);
      else if (!w.heartbeat(time)) forget(w);
    });
  }

  /** Asks every watch of this person whether its session holds, now (a session of theirs ended). */
  function recheckUser(userId: number) {
    const mine = [...watchers.values()].flatMap((set) => [...set].filter((w) => w.userId === userId));
    return Promise.all(
      mine.map(async (w) => {
        const refusal = await w.recheck().catch(recheckFailed);
        if (refusal && watchers.get(w.deviceId)?.has(w)) refuse(w, refusal);
      }),
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
     * Adds a watcher and sends it the device's current state in the next round; listening
     * starts first and the watcher is in place before that round reads, so a push between the
     * read and the subscription cannot be missed.
     */
    async watch(w: Watcher<D>): Promise<void> {
      if (closed) return w.goAway();
      await listen();
      const set = watchers.get(w.deviceId) ?? new Set();
      watchers.set(w.deviceId, set.add(w));
      greeting.add(w);
      const { d, served } = dueFor(w.deviceId);
      d.fresh.add(w);
      soon();
      await served;
    },
    /** Drops a watcher (its socket closed or it subscribed to something else). */
    unwatch: forget,
    /** Reads a device and tells its watchers in the next round, as an announcement does. */
    refresh,
    /** Runs a heartbeat now (tests; the timer does it every heartbeatMs). */
    beat,
    /** Session checks that failed since the start (kept watching; live_recheck_errors_total). */
    recheckErrors: () => recheckErrors,
    /** How many watchers the instance has. */
    size: () => [...watchers.values()].reduce((n, set) => n + set.size, 0),
    /** Stops listening and closes every socket with "going away". */
    async close() {
      closed = true;
      clearInterval(timer);
      for (const set of watchers.values()) for (const w of set) w.goAway();
      watchers.clear();
      greeting.clear();
      const l = await listening?.catch(() => null);
      await l?.close();
    },
  };
}
