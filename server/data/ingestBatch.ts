import { sql, type SQL } from "drizzle-orm";
import { inTransaction, rows as rowsOf, type Db } from "../db/client.ts";
import { keyMatches } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import type { Outcome } from "../core/groupCommit.ts";
import { announceDevices } from "./liveNotify.ts";
import { rollUpBatch } from "./rollupBatch.ts";
import { THRESHOLD_SQL } from "./alerts.ts";

export const BAD_DEVICE_KEY = "Unknown device or wrong device key.";
export const SUSPENDED = "This device is suspended and cannot push data.";

/**
 * A push checked against a copy of its device's sensors and channels that is no longer the
 * device's (its row's shape_version moved, or the row is gone): data/ingest.ts looks the device
 * up afresh and checks the push again.
 */
export class ShapeChanged extends Error {
  constructor() {
    super("The device's sensors or channels changed since the push was checked.");
  }
}

export type Row = { channelId: number; time: Date; value: number };
/** What one stored push did: the alarms it moved, and the finest rollup buckets its repeats made recompute. */
export type Stored = { alarmsMoved: number; recomputed: number };
/** The finest rollup level's width: a repeated reading costs a recomputation of its bucket there (and above). */
export const FINEST_SECONDS = 300;
/** The distinct finest rollup buckets of these rows, as "channel@bucket" strings. */
export const bucketsOf = (rows: readonly Row[]) =>
  new Set(rows.map((r) => `${r.channelId}@${Math.floor(r.time.getTime() / 1000 / FINEST_SECONDS)}`));
export type Known = { id: number; groupId: number; sensorId: number };

/**
 * What runs on a batch's readings inside its transaction (the alert rules,
 * flows/alertEvaluation.ts, passed in by the push route): each push's device and rows in, how
 * many alarms each push moved out.
 */
export type ReadingsHook = (
  tx: Db,
  batch: {
    /** `watched`: whether its subscription has a threshold rule running, read with its row lock. */
    device: { id: number; subscriptionId: number; watched?: boolean };
    readings: Row[];
  }[],
  now: Date,
) => Promise<number[]>;

/** A push already checked against its device's channels and sensors (data/ingest.ts), ready to store. */
export interface CheckedPush {
  deviceId: number;
  /** The device's shape_version the push was checked against, and whether that was a remembered copy. */
  shape: number;
  remembered: boolean;
  key: string | null;
  rows: Row[];
  /** The channel, group and sensor of each channel the rows name. */
  channels: Map<number, Known>;
  /** Battery, signal and power per sensor id, undefined fields left as they are. */
  sensors: {
    id: number;
    battery?: number | undefined;
    signal?: number | undefined;
    pluggedIn?: boolean | undefined;
  }[];
  uptime: number | undefined;
  now: Date;
  evaluate: ReadingsHook;
}

const ROW_LOCK_TIMEOUT_MS = 5000;

/** A PostgreSQL array literal of plain values (numbers, ISO times, booleans, nulls) for one parameter. */
const arr = (values: readonly (string | number | boolean | null | undefined)[], type: string) =>
  sql`${`{${values.map((v) => (v === null || v === undefined ? "NULL" : String(v))).join(",")}}`}::${sql.raw(type)}`;

/** Samples as three array parameters, for unnest: channel ids, times, values. */
const columns = (samples: readonly Row[]) =>
  sql`${arr(
    samples.map((r) => r.channelId),
    "int[]",
  )}, ${arr(
    samples.map((r) => r.time.toISOString()),
    "timestamptz[]",
  )}, ${arr(
    samples.map((r) => r.value),
    "float8[]",
  )}`;

/**
 * Stores a batch of pushes of different devices in one transaction, set-based: the devices'
 * rows are locked first, in id order (two batches, or two instances, lock in one order), and
 * each push's key and suspension read again under its lock. A push failing that gets its own
 * 401/403 and is left out; the rest is stored whole and answered with the alarms it moved.
 * Throws when the transaction as a whole fails; the caller then stores each push alone.
 */
export function storeBatch(db: Db, pushes: readonly CheckedPush[]): Promise<Outcome<Stored>[]> {
  return inTransaction(
    db,
    async (tx) => {
      const ids = [...new Set(pushes.map((p) => p.deviceId))].sort((a, b) => a - b);
      const locked = await rowsOf<{
        id: number;
        hash: string;
        suspended: boolean;
        subscriptionId: number;
        horizon: number;
        shape: number;
        watched: boolean;
      }>(
        tx,
        // Whether the device's subscription has a threshold rule running, in the same statement:
        // the rules' hook then needs no statement of its own for the many pushes nobody watches.
        sql`select d.id, d.ingest_key_hash as hash, d.is_suspended as suspended, d.subscription_id as "subscriptionId",
            date_part('epoch', d.rolled_until)::float8 as horizon, d.shape_version as shape,
            exists (select 1 from alert_rules r where r.subscription_id = d.subscription_id
              and not r.paused and r.kind in ${THRESHOLD_SQL}) as watched
          from devices d where d.id = any(${arr(ids, "int[]")}) order by d.id for update of d`,
      );
      const byId = new Map(locked.map((d) => [d.id, d]));
      const outcomes: Outcome<Stored>[] = pushes.map((p) => {
        const current = byId.get(p.deviceId);
        // A remembered device may have been removed since (and its MAC given to another).
        if (!current && p.remembered) return { ok: false, error: new ShapeChanged() };
        if (!current || !p.key || !keyMatches(p.key, current.hash))
          return { ok: false, error: new ApiError(401, BAD_DEVICE_KEY) };
        if (current.suspended) return { ok: false, error: new ApiError(403, SUSPENDED) };
        // Its channel ids are the device's only while nothing moved them: else no sample is written.
        if (current.shape !== p.shape) return { ok: false, error: new ShapeChanged() };
        return { ok: true, value: { alarmsMoved: 0, recomputed: 0 } };
      });
      const kept = pushes.filter((_, i) => outcomes[i]!.ok);
      if (!kept.length) return outcomes;

      // One row per channel and second, the last push's (pushes are in arrival order): a batch
      // holds one push of a device, but an insert that met one key twice would keep the first.
      const last = new Map<string, { row: Row; horizon: number }>();
      for (const p of kept)
        for (const row of p.rows)
          last.set(`${row.channelId}@${row.time.getTime()}`, { row, horizon: byId.get(p.deviceId)!.horizon });
      const all = [...last.values()].map((l) => l.row);
      const horizons = [...last.values()].map((l) => l.horizon);
      // New samples first; what conflicts was stored before (a repeat or a correction) and is
      // overwritten next: the insert tells which is which (rollupBatch.ts needs it).
      const inserted = all.length
        ? await rowsOf<{ c: number; t: number }>(
            tx,
            sql`insert into samples (channel_id, time, value)
          select * from unnest(${columns(all)}) on conflict (channel_id, time) do nothing
          returning channel_id as c, date_part('epoch', time)::float8 as t`,
          )
        : [];
      const fresh = new Set(inserted.map((w) => `${w.c}@${Number(w.t) * 1000}`));
      const isRepeat = (r: Row) => !fresh.has(`${r.channelId}@${r.time.getTime()}`);
      const repeated = all.filter(isRepeat);
      if (repeated.length)
        await tx.execute(sql`update samples s set value = v.value from unnest(${columns(repeated)}) as v(c, t, value)
        where s.channel_id = v.c and s.time = v.t`);
      // The report charts' rollups, brought up to date with these samples (issue 10).
      await rollUpBatch(
        tx,
        all.map((r, i) => ({
          ...r,
          fresh: fresh.has(`${r.channelId}@${r.time.getTime()}`),
          horizon: horizons[i]!,
        })),
      );
      await storeSensors(tx, kept);
      const keptIds = kept.map((p) => p.deviceId);
      // The groups' and sensors' times and the devices' last message in one statement: a round
      // trip (and a socket write on both sides) instead of three.
      const devicesUpdate = sql`update devices d set last_message_at = v.at, push_status = 1,
        uptime = coalesce(v.uptime, d.uptime)
      from unnest(${arr(keptIds, "int[]")}, ${arr(
        kept.map((p) => p.uptime),
        "int[]",
      )}, ${arr(
        kept.map((p) => p.now.toISOString()),
        "timestamptz[]",
      )}) as v(id, uptime, at) where d.id = v.id`;
      const updates = [...latestUpdates(kept), devicesUpdate];
      await tx.execute(
        sql`with ${sql.join(
          updates.map((u, i) => sql`${sql.raw(`u${i}`)} as (${u})`),
          sql`, `,
        )} select 1`,
      );
      // Threshold rules, in the same transaction: an alarm's move commits with its readings.
      // Once per hook for the batch (the route passes one; the latest clock of its pushes).
      for (const hook of new Set(kept.map((p) => p.evaluate))) {
        const mine = pushes.flatMap((p, i) => (outcomes[i]!.ok && p.evaluate === hook ? [i] : []));
        const at = new Date(Math.max(...mine.map((i) => pushes[i]!.now.getTime())));
        const batch = mine.map((i) => ({
          device: {
            id: pushes[i]!.deviceId,
            subscriptionId: byId.get(pushes[i]!.deviceId)!.subscriptionId,
            watched: byId.get(pushes[i]!.deviceId)!.watched,
          },
          readings: pushes[i]!.rows,
        }));
        const moved = await hook(tx, batch, at);
        mine.forEach((i, k) => {
          const recomputed = bucketsOf(pushes[i]!.rows.filter(isRepeat)).size;
          outcomes[i] = { ok: true, value: { alarmsMoved: moved[k] ?? 0, recomputed } };
        });
      }
      // Inside the transaction: PostgreSQL delivers it at commit, and never after a rollback.
      await announceDevices(
        tx,
        [...keptIds].sort((a, b) => a - b),
        db,
      );
      return outcomes;
    },
    { lockTimeoutMs: ROW_LOCK_TIMEOUT_MS },
  );
}

/**
 * Groups and sensors get their last-received time, never earlier than what they had: two
 * updates for the whole batch (run as one statement's parts), rows in id order. A channel's
 * latest value is its newest sample (channelValue.ts): nothing to write for it here.
 */
function latestUpdates(kept: readonly CheckedPush[]): SQL[] {
  const groups = new Map<number, Date>();
  const sensors = new Map<number, Date>();
  const later = (m: Map<number, Date>, id: number, t: Date) => {
    const cur = m.get(id);
    if (!cur || t > cur) m.set(id, t);
  };
  for (const p of kept)
    for (const r of p.rows) {
      const known = p.channels.get(r.channelId)!;
      later(groups, known.groupId, r.time);
      later(sensors, known.sensorId, r.time);
    }
  const newest = (m: Map<number, Date>) => {
    const list = [...m].sort((a, b) => a[0] - b[0]);
    return sql`unnest(${arr(
      list.map(([id]) => id),
      "int[]",
    )}, ${arr(
      list.map(([, t]) => t.toISOString()),
      "timestamptz[]",
    )}) as v(id, t)`;
  };
  if (!groups.size) return [];
  return [
    sql`update channel_groups g set last_received_at = greatest(coalesce(g.last_received_at, v.t), v.t)
      from ${newest(groups)} where g.id = v.id`,
    sql`update sensors s set last_received_at = greatest(coalesce(s.last_received_at, v.t), v.t)
      from ${newest(sensors)} where s.id = v.id`,
  ];
}

/** Battery, signal and power of the pushes' sensors, one statement; a field left out keeps its value. */
async function storeSensors(tx: Db, kept: readonly CheckedPush[]) {
  const merged = new Map<number, CheckedPush["sensors"][number]>();
  for (const p of kept)
    for (const s of p.sensors) {
      const defined = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));
      merged.set(s.id, { ...merged.get(s.id), ...defined, id: s.id });
    }
  const list = [...merged.values()]
    .filter((s) => s.battery !== undefined || s.signal !== undefined || s.pluggedIn !== undefined)
    .sort((a, b) => a.id - b.id);
  if (!list.length) return;
  await tx.execute(sql`update sensors s set battery = coalesce(v.battery, s.battery),
      signal = coalesce(v.signal, s.signal), plugged_in = coalesce(v.plugged, s.plugged_in)
    from unnest(${arr(
      list.map((s) => s.id),
      "int[]",
    )}, ${arr(
      list.map((s) => s.battery),
      "int[]",
    )}, ${arr(
      list.map((s) => s.signal),
      "int[]",
    )}, ${arr(
      list.map((s) => s.pluggedIn),
      "boolean[]",
    )}) as v(id, battery, signal, plugged)
    where s.id = v.id`);
}
