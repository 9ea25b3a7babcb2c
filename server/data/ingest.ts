import { and, eq, inArray, sql } from "drizzle-orm";
import { inTransaction, type Db } from "../db/client.ts";
import { channelGroups, channels, devices, samples, sensors } from "../db/schema/index.ts";
import { keyMatches } from "../core/crypto.ts";
import { ApiError, type FieldError } from "../core/errors.ts";
import { turnsByKey, type TurnOptions } from "../core/turns.ts";
import type { Push } from "../../src/api/readings.ts";
import { announceDevice } from "./liveNotify.ts";
import { rollUpSamples } from "./rollups.ts";

export const BAD_DEVICE_KEY = "Unknown device or wrong device key.";
export const SUSPENDED = "This device is suspended and cannot push data.";
export const UNKNOWN_CHANNEL = "Unknown channel for this device.";
export const UNKNOWN_SENSOR = "Unknown sensor for this device.";
export const TIME_OUT_OF_RANGE = "Reading time must be within the last 7 days and not in the future.";

const MAX_AGE_SECONDS = 7 * 86400;
const MAX_SKEW_SECONDS = 300;

/**
 * Authenticates a push, checks every reading, then stores all of it in one transaction;
 * `accepted` counts the samples stored (repeats of a channel and second count once).
 */
export async function ingestPush(
  db: Db,
  key: string | null,
  push: Push,
  now: Date,
  turn: TurnOptions = {},
  evaluate: ReadingsHook = async () => 0,
): Promise<{ accepted: number; alarmsMoved: number }> {
  const [device] = await db.select().from(devices).where(eq(devices.macAddress, push.macAddress));
  if (!device || !key || !keyMatches(key, device.ingestKeyHash)) throw new ApiError(401, BAD_DEVICE_KEY);
  if (device.isSuspended) throw new ApiError(403, SUSPENDED);

  const nowS = Math.floor(now.getTime() / 1000);
  const keys = [...new Set(push.readings.map((r) => r.channelKey))];
  const known = await db
    .select({ id: channels.id, key: channels.channelKey, groupId: channelGroups.id, sensorId: sensors.id })
    .from(channels)
    .innerJoin(channelGroups, eq(channels.channelGroupId, channelGroups.id))
    .innerJoin(sensors, eq(channelGroups.sensorId, sensors.id))
    .where(and(eq(sensors.deviceId, device.id), inArray(channels.channelKey, keys)));
  const byKey = new Map(known.map((k) => [k.key, k]));
  const deviceSensors = await db
    .select({ id: sensors.id, mac: sensors.macAddress })
    .from(sensors)
    .where(eq(sensors.deviceId, device.id));
  const sensorByMac = new Map(deviceSensors.map((s) => [s.mac, s.id]));

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
  // One push of a device at a time, waiting in this process first (off the database pool),
  // then on the device's row across instances: its pushes share channel, group and sensor
  // rows, which set-based updates lock in no fixed order (two at once deadlocked on PostgreSQL).
  const stored = { key, id: device.id };
  const store = () => storePush(db, stored, push, rows, byKey, sensorByMac, now, evaluate);
  const alarmsMoved = await devicePushTurn(device.id, store, turn);
  return { accepted: rows.length, alarmsMoved };
}

/** How many of one device's pushes may wait behind its running one in a process; more get a 429. */
export const MAX_WAITING_PUSHES = 64;
export const PUSHES_BUSY = "This device is sending too many pushes at once. Try again in a few seconds.";
export const PUSH_WAITED_TOO_LONG =
  "This device's pushes are waiting too long to be stored. Try again in a few seconds.";
/** A push's longest wait for its turn in the process, and for the device's row in the database. */
export const MAX_TURN_WAIT_MS = 30_000;
const ROW_LOCK_TIMEOUT = "5s";
const devicePushTurn = turnsByKey({
  maxWaiting: MAX_WAITING_PUSHES,
  busyMessage: PUSHES_BUSY,
  maxWaitMs: MAX_TURN_WAIT_MS,
  staleMessage: PUSH_WAITED_TOO_LONG,
});
/** SQLSTATE lock_not_available: the device's row stayed locked past the lock timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Stores a checked push, whole or not at all. The device's key and suspension are read again
 * under its row lock: a push that waited its turn while the device was suspended or given a new
 * key stores nothing. A row held elsewhere (another instance's stuck transaction) fails the push
 * after ROW_LOCK_TIMEOUT instead of holding a connection for as long as it stays stuck.
 */
async function storePush(
  db: Db,
  device: { key: string | null; id: number },
  push: Push,
  rows: Row[],
  byKey: Map<string, Known>,
  sensorByMac: Map<string, number>,
  now: Date,
  evaluate: ReadingsHook,
): Promise<number> {
  try {
    return await storePushNow(db, device, push, rows, byKey, sensorByMac, now, evaluate);
  } catch (e) {
    if (sqlStateOf(e) === LOCK_NOT_AVAILABLE) throw new ApiError(503, PUSH_WAITED_TOO_LONG);
    throw e;
  }
}

function storePushNow(
  db: Db,
  { key, id: deviceId }: { key: string | null; id: number },
  push: Push,
  rows: Row[],
  byKey: Map<string, Known>,
  sensorByMac: Map<string, number>,
  now: Date,
  evaluate: ReadingsHook,
) {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${ROW_LOCK_TIMEOUT}'`));
    const [current] = await tx
      .select({
        hash: devices.ingestKeyHash,
        suspended: devices.isSuspended,
        subscriptionId: devices.subscriptionId,
      })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .for("update");
    if (!current || !key || !keyMatches(key, current.hash)) throw new ApiError(401, BAD_DEVICE_KEY);
    if (current.suspended) throw new ApiError(403, SUSPENDED);
    await tx
      .insert(samples)
      .values(rows)
      .onConflictDoUpdate({
        target: [samples.channelId, samples.time],
        set: { value: sql`excluded.value` },
      });
    await storeLatest(tx, rows, byKey);
    // The report charts' rollups, recomputed for the buckets these samples fall in (issue 10).
    await rollUpSamples(tx, rows);
    for (const s of push.sensors ?? []) {
      const patch = { battery: s.battery, signal: s.signal, pluggedIn: s.pluggedIn };
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      if (Object.keys(defined).length)
        await tx
          .update(sensors)
          .set(defined)
          .where(eq(sensors.id, sensorByMac.get(s.macAddress)!));
    }
    await tx
      .update(devices)
      .set({
        lastMessageAt: now,
        pushStatus: 1,
        ...(push.uptime === undefined ? {} : { uptime: push.uptime }),
      })
      .where(eq(devices.id, deviceId));
    // Threshold rules, in the same transaction: an alarm's move commits with its readings.
    const moved = await evaluate(tx, { id: deviceId, subscriptionId: current.subscriptionId }, rows, now);
    // Inside the transaction: PostgreSQL delivers it at commit, and never after a rollback.
    await announceDevice(tx, deviceId, now);
    return moved;
  });
}

/**
 * What runs on a push's readings inside its transaction (the alert rules, flows/alertEvaluation.ts,
 * passed in by the push route); returns how many alarms it moved.
 */
export type ReadingsHook = (
  tx: Db,
  device: { id: number; subscriptionId: number },
  rows: Row[],
  now: Date,
) => Promise<number>;

type Known = { id: number; groupId: number; sensorId: number };
type Row = { channelId: number; time: Date; value: number };

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

/**
 * The newest reading per channel becomes its value unless the value is newer; groups and sensors get their last-received
 * time. Three statements whatever the number of channels (one per channel each was 60 for a
 * 20-channel push), with rows in id order so two pushes lock what they share in one order.
 */
async function storeLatest(tx: Db, rows: Row[], byKey: Map<string, Known>) {
  const latest = new Map<number, { time: Date; value: number }>();
  for (const r of rows) {
    const cur = latest.get(r.channelId);
    if (!cur || r.time > cur.time) latest.set(r.channelId, r);
  }
  if (!latest.size) return;
  const meta = new Map([...byKey.values()].map((k) => [k.id, k]));
  const list = [...latest].sort(([a], [b]) => a - b).map(([id, r]) => ({ ...r, ...meta.get(id)! }));
  const values = (pick: (l: (typeof list)[number]) => ReturnType<typeof sql>) =>
    sql.join(
      list.map((l) => sql`(${pick(l)})`),
      sql`, `,
    );
  // A late push of older readings leaves a channel's newer value alone (a reading at the
  // value's own time is a correction of it, and counts).
  await tx.execute(sql`update channels c set value = v.value, value_at = v.t
    from (values ${values((l) => sql`${l.id}::int, ${l.value}::float8, ${l.time}::timestamptz`)}) as v(id, value, t)
    where c.id = v.id and (c.value_at is null or v.t >= c.value_at)`);
  // A group's or sensor's newest time among its channels, never earlier than what it had.
  const newest = (ids: ReturnType<typeof sql>) =>
    sql`(select id, max(t) as t from (values ${ids}) as x(id, t) group by id)`;
  await tx.execute(sql`update channel_groups g set last_received_at = greatest(coalesce(g.last_received_at, v.t), v.t)
    from ${newest(values((l) => sql`${l.groupId}::int, ${l.time}::timestamptz`))} as v where g.id = v.id`);
  await tx.execute(sql`update sensors s set last_received_at = greatest(coalesce(s.last_received_at, v.t), v.t)
    from ${newest(values((l) => sql`${l.sensorId}::int, ${l.time}::timestamptz`))} as v where s.id = v.id`);
}

/** The SQLSTATE of a failed statement (Drizzle keeps the driver's error as its cause). */
function sqlStateOf(e: unknown): string | undefined {
  for (let err = e, depth = 0; err instanceof Error && depth < 4; err = err.cause, depth++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
