import type { Db } from "../db/client.ts";
import { keyMatches } from "../core/crypto.ts";
import { ApiError, type FieldError } from "../core/errors.ts";
import { groupCommit, type GroupCommit, type GroupCommitOptions } from "../core/groupCommit.ts";
import { ABANDONED, arrivalsByKey, turnsByKey, type TurnOptions } from "../core/turns.ts";
import type { Push } from "../../src/api/readings.ts";
import { lookUpPushDevice, type PushDevice } from "./ingestLookup.ts";
import {
  BAD_DEVICE_KEY,
  ShapeChanged,
  storeBatch,
  SUSPENDED,
  type CheckedPush,
  type ReadingsHook,
  type Row,
  type Stored,
} from "./ingestBatch.ts";
import { isHeavyPush } from "./ingestWeight.ts";

export { BAD_DEVICE_KEY, SUSPENDED, type ReadingsHook } from "./ingestBatch.ts";
export const UNKNOWN_CHANNEL = "Unknown channel for this device.";
export const UNKNOWN_SENSOR = "Unknown sensor for this device.";
export const TIME_OUT_OF_RANGE = "Reading time must be within the last 7 days and not in the future.";

const MAX_AGE_SECONDS = 7 * 86400;
const MAX_SKEW_SECONDS = 300;

/**
 * Authenticates a push, checks every reading, then stores all of it in its batch's transaction
 * (or alone, when it repeats many stored readings: data/ingestWeight.ts); `accepted` counts the
 * samples stored (repeats of a channel and second count once), `recomputed` the rollup buckets
 * its repeats made recompute.
 */
export async function ingestPush(
  db: Db,
  key: string | null,
  push: Push,
  now: Date,
  turn: IngestTurn = {},
  evaluate: ReadingsHook = async (_, batch) => batch.map(() => 0),
): Promise<{ accepted: number } & Stored> {
  // A place in the line of this MAC's pushes, taken before anything is awaited: the lookup and
  // the weight check below may answer a later push first (two lookup batches on two
  // connections), and the device's turn must still come in the order the pushes arrived.
  const place = pushArrivals(push.macAddress);
  try {
    return await checkAndStore(db, key, push, now, turn, evaluate, place);
  } finally {
    place.pass();
  }
}

async function checkAndStore(
  db: Db,
  key: string | null,
  push: Push,
  now: Date,
  turn: IngestTurn,
  evaluate: ReadingsHook,
  place: { before: Promise<void>; pass: () => void },
): Promise<{ accepted: number } & Stored> {
  // Refused at once while the batches are far behind: answering 503 costs next to nothing, and
  // the device comes back later, where a push queued behind seconds of work would hold its
  // connection, and on PGlite the lookup's work would keep the process from even accepting more.
  if (batchesOf(db, turn.batch).oldestWaitMs > (turn.behindAfterMs ?? BEHIND_AFTER_MS))
    throw new ApiError(503, PUSHES_BEHIND);
  const check = (fresh: boolean) => checkPush(db, key, push, now, evaluate, turn.gone, fresh);
  // Asked before the turn: the read holds nothing, and a device's pushes stay in order either way.
  const laneOf = async (checked: Queued) =>
    (await isHeavyPush(db, checked.rows)) ? batchesOf(db, SOLO) : batchesOf(db, turn.batch);
  const checked = await check(false);
  const lane = await laneOf(checked);
  await place.before;
  // One push of a device at a time, waiting in this process first (off the database pool): a
  // device's next push waits for its previous one's batch to commit, so a batch never holds two
  // pushes of one device and they are stored in the order they came. Across instances the
  // device's row lock, taken first in each batch, orders them. The turn is queued as it is
  // called, so the next push of the MAC may go on from here.
  // By MAC, not by device id: a push checked again (below) may find its MAC on another device
  // row than its first check did (removed and added again), and must still go before the
  // MAC's next push.
  const storing = devicePushTurn(
    push.macAddress,
    async () => {
      try {
        return { accepted: checked.rows.length, ...(await lane.submit(checked)) };
      } catch (e) {
        if (!(e instanceof ShapeChanged)) throw e;
        // Checked against a copy of the device that is not the device any more: checked again
        // against the device as it is now, still in this push's turn.
        const again = await check(true);
        try {
          return { accepted: again.rows.length, ...(await (await laneOf(again)).submit(again)) };
        } catch (e2) {
          if (e2 instanceof ShapeChanged) throw new ApiError(503, PUSH_WAITED_TOO_LONG);
          throw e2;
        }
      }
    },
    turn,
  );
  place.pass();
  return storing;
}

/** Whether a remembered device fits a push: its key, not suspended, and every channel and sensor known. */
const fits = (device: PushDevice, key: string | null, push: Push) =>
  !!key &&
  keyMatches(key, device.hash) &&
  !device.suspended &&
  push.readings.every((r) => device.channels.has(r.channelKey)) &&
  (push.sensors ?? []).every((s) => device.sensors.has(s.macAddress));

/**
 * A push checked against its device (remembered, or looked up with `fresh`): its key, each
 * reading's channel and time, each sensor; what its batch stores. A remembered device the push
 * does not fit (a new key, a channel added since) is looked up again before the push is refused.
 */
async function checkPush(
  db: Db,
  key: string | null,
  push: Push,
  now: Date,
  evaluate: ReadingsHook,
  gone: (() => boolean) | undefined,
  fresh: boolean,
): Promise<Queued> {
  let { device, remembered } = await lookUpPushDevice(db, push.macAddress, fresh);
  if (device && remembered && !fits(device, key, push))
    ({ device, remembered } = await lookUpPushDevice(db, push.macAddress, true));
  if (!device || !key || !keyMatches(key, device.hash)) throw new ApiError(401, BAD_DEVICE_KEY);
  if (device.suspended) throw new ApiError(403, SUSPENDED);

  const nowS = Math.floor(now.getTime() / 1000);
  const byKey = device.channels;
  const sensorByMac = device.sensors;

  const errors: FieldError[] = [];
  push.readings.forEach((r, i) => {
    if (!byKey.has(r.channelKey))
      errors.push({ field: `readings.${i}.channelKey`, message: UNKNOWN_CHANNEL });
    const t = r.time ?? nowS;
    if (t > nowS + MAX_SKEW_SECONDS || t < nowS - MAX_AGE_SECONDS)
      errors.push({ field: `readings.${i}.time`, message: TIME_OUT_OF_RANGE });
  });
  (push.sensors ?? []).forEach((s, i) => {
    if (!sensorByMac.has(s.macAddress))
      errors.push({ field: `sensors.${i}.macAddress`, message: UNKNOWN_SENSOR });
  });
  if (errors.length) throw new ApiError(400, errors);

  const rows = lastPerSecond(
    push.readings.map((r) => ({
      channelId: byKey.get(r.channelKey)!.id,
      time: new Date((r.time ?? nowS) * 1000),
      value: r.value,
    })),
  );
  return {
    deviceId: device.id,
    shape: device.shape,
    remembered,
    key,
    rows,
    channels: new Map(push.readings.map((r) => [byKey.get(r.channelKey)!.id, byKey.get(r.channelKey)!])),
    sensors: (push.sensors ?? []).map((s) => ({
      id: sensorByMac.get(s.macAddress)!,
      battery: s.battery,
      signal: s.signal,
      pluggedIn: s.pluggedIn,
    })),
    uptime: push.uptime,
    now,
    evaluate,
    gone,
  };
}

/** The order of each MAC address's pushes as they reached this process. */
const pushArrivals = arrivalsByKey();

/** How many of one device's pushes may wait behind its running one in a process; more get a 429. */
export const MAX_WAITING_PUSHES = 64;
export const PUSHES_BUSY = "This device is sending too many pushes at once. Try again in a few seconds.";
export const PUSHES_BEHIND =
  "The portal is receiving more pushes than it can store right now. Try again in a few seconds.";
/**
 * A push lane whose oldest push has waited this long for its batch refuses new pushes. More
 * than a batch failing on a row held elsewhere takes with its pushes then stored one by one (two
 * lock timeouts, 10 s): a row another instance holds is not the portal falling behind.
 */
export const BEHIND_AFTER_MS = 15_000;
/** How a push waits: its client's state, its lane's batches, when the lane counts as behind. */
export type IngestTurn = TurnOptions & { batch?: GroupCommitOptions; behindAfterMs?: number };
export const PUSH_WAITED_TOO_LONG =
  "This device's pushes are waiting too long to be stored. Try again in a few seconds.";
/** A push's longest wait for its turn in the process, and for the device's row in the database. */
export const MAX_TURN_WAIT_MS = 30_000;
const devicePushTurn = turnsByKey({
  maxWaiting: MAX_WAITING_PUSHES,
  busyMessage: PUSHES_BUSY,
  maxWaitMs: MAX_TURN_WAIT_MS,
  staleMessage: PUSH_WAITED_TOO_LONG,
});
/** SQLSTATE lock_not_available: a device's row stayed locked past the lock timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

/** Pushes stored together (PUSH_BATCH_MAX, PUSH_BATCH_LINGER_MS, PUSH_BATCH_RUNNING): config.ts. */
export const DEFAULT_PUSH_BATCHES: GroupCommitOptions = { maxBatch: 500, lingerMs: 5, maxRunning: 1 };

/**
 * The lane of heavy pushes (many repeated readings): one at a time per process, each in its own
 * transaction, beside the batches, so the small fresh pushes of every other device never wait
 * for its recomputations (a second or more) inside a shared batch.
 */
const SOLO: GroupCommitOptions = { maxBatch: 1, lingerMs: 0, maxRunning: 1 };

type Queued = CheckedPush & { gone: (() => boolean) | undefined };
/** Per database, the group commit of each set of options (one in a server; tests use others). */
const batchers = new WeakMap<Db, Map<GroupCommitOptions | string, GroupCommit<Queued, Stored>>>();

/**
 * The group commit of one database's pushes (one per process and database). A push whose
 * client left while it waited is not stored; one that waited too long is answered 503. A row
 * held elsewhere (another instance's stuck transaction) fails the batch after the lock timeout;
 * its pushes are then stored one by one, and the one still stuck is answered 503.
 */
function batchesOf(db: Db, opts: GroupCommitOptions = DEFAULT_PUSH_BATCHES) {
  // The solo lane by identity: a configuration of 1/0/1 still gets a batch lane of its own.
  const name = opts === SOLO ? SOLO : `${opts.maxBatch}/${opts.lingerMs}/${opts.maxRunning}`;
  const forDb = batchers.get(db) ?? new Map<GroupCommitOptions | string, GroupCommit<Queued, Stored>>();
  batchers.set(db, forDb);
  const found = forDb.get(name);
  if (found) return found;
  const batches = groupCommit<Queued, Stored>(
    opts,
    async (items) => {
      try {
        return await storeBatch(db, items);
      } catch (e) {
        if (sqlStateOf(e) === LOCK_NOT_AVAILABLE) throw new ApiError(503, PUSH_WAITED_TOO_LONG);
        throw e;
      }
    },
    (item, waitedMs) => {
      if (item.gone?.()) return new ApiError(400, ABANDONED);
      if (waitedMs > MAX_TURN_WAIT_MS) return new ApiError(503, PUSH_WAITED_TOO_LONG);
      return null;
    },
  );
  forDb.set(name, batches);
  return batches;
}

/**
 * One reading per channel and second, the last in the push winning (as a later push for the
 * same second overwrites too). Two readings of one channel without a time both mean "now";
 * one INSERT ... ON CONFLICT DO UPDATE cannot touch a row twice, so they are merged here.
 */
function lastPerSecond(rows: Row[]): Row[] {
  const last = new Map<string, Row>();
  for (const r of rows) last.set(`${r.channelId}@${r.time.getTime()}`, r);
  return [...last.values()];
}

/** The SQLSTATE of a failed statement (Drizzle keeps the driver's error as its cause). */
function sqlStateOf(e: unknown): string | undefined {
  for (let err = e, depth = 0; err instanceof Error && depth < 4; err = err.cause, depth++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
