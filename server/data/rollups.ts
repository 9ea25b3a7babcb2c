import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";
import { foldChannels } from "./rollupFold.ts";
import { COLUMNS, epoch, OF_FINER, OF_SAMPLES, SUMMARY, UPSERT, width } from "./rollupSql.ts";

const FINEST = ROLLUP_LEVELS[0];
const COARSEST = ROLLUP_LEVELS[ROLLUP_LEVELS.length - 1]!;

/** A channel's buckets to recompute (epoch seconds), and how far its device's folding stands. */
type Touched = ReadonlyMap<number, { buckets: ReadonlySet<number>; horizon: number }>;

/** Channel, bucket start and horizon triples as three SQL arrays, for unnest. */
function triples(touched: Touched): { ids: SQL; starts: SQL; horizons: SQL } {
  const ids: number[] = [];
  const starts: string[] = [];
  const horizons: string[] = [];
  for (const [id, { buckets, horizon }] of touched)
    for (const s of buckets) {
      ids.push(id);
      starts.push(new Date(s * 1000).toISOString());
      horizons.push(Number.isFinite(horizon) ? new Date(horizon * 1000).toISOString() : "infinity");
    }
  return {
    ids: sql`${`{${ids.join(",")}}`}::int[]`,
    starts: sql`${`{${starts.join(",")}}`}::timestamptz[]`,
    horizons: sql`${`{${horizons.join(",")}}`}::timestamptz[]`,
  };
}

/**
 * The buckets of `level` holding the given buckets of a finer level (or times). A coarser level
 * keeps only what starts before the horizon (data/rollupFold.ts), so with `folded` a finer
 * bucket at or after it has no parent to recompute.
 */
function parents(touched: Touched, level: number, folded = false): Touched {
  const out = new Map<number, { buckets: Set<number>; horizon: number }>();
  for (const [id, { buckets, horizon }] of touched) {
    const kept = [...buckets].filter((s) => !folded || s < horizon);
    if (kept.length)
      out.set(id, { buckets: new Set(kept.map((s) => Math.floor(s / level) * level)), horizon });
  }
  return out;
}

/**
 * Recomputes the given buckets of `level`, each read on its own through the primary key
 * (a lateral lookup: a push touches a bucket or two of channels with a year of samples).
 */
async function recomputeBuckets(db: Db, touched: Touched, level: number, finer: number | null) {
  if (!touched.size) return;
  const { ids, starts, horizons } = triples(touched);
  const inside = (col: SQL) => sql`${col} >= t.b and ${col} < t.b + ${width(level)}`;
  const summary =
    finer === null
      ? sql`select ${OF_SAMPLES} from samples s where s.channel_id = t.c and ${inside(sql.raw("s.time"))}`
      : sql`select ${OF_FINER} from sample_rollups r
            where r.channel_id = t.c and r.level = ${finer} and ${inside(sql.raw("r.bucket"))} and r.bucket < t.h`;
  await db.execute(sql`
    insert into sample_rollups ${COLUMNS}
    select t.c, ${level}, t.b, ${SUMMARY}
    from unnest(${ids}, ${starts}, ${horizons}) as t(c, b, h) cross join lateral (${summary}) as a
    where a.n > 0
    ${UPSERT}`);
}

/** Rebuilds the finest level over [start, end) from the samples, for the channels in one grouped pass. */
async function rebuildFinest(db: Db, ids: SQL, start: number, end: number) {
  await db.execute(sql`insert into sample_rollups ${COLUMNS}
    select a.c, ${FINEST}, a.b, ${SUMMARY} from (
      select s.channel_id as c, date_bin(${width(FINEST)}, s.time, ${epoch}) as b, ${OF_SAMPLES}
      from samples s where s.channel_id in (${ids})
        and s.time >= to_timestamp(${start}) and s.time < to_timestamp(${end}) group by 1, 2) as a
    ${UPSERT}`);
}

/**
 * Brings every level's buckets that hold the given samples up to date, recomputed from the
 * samples (then level from level), so an overwritten reading or one pushed late leaves them
 * exact. The coarser levels only where the sample's finest bucket starts before its device's
 * horizon (`horizon`, epoch seconds; the fold job takes the rest). For a writer holding the
 * channels' devices' rows (a batch of pushes, data/rollupBatch.ts), which rollUpRange and the
 * fold take too.
 */
export async function recomputeSamples(
  db: Db,
  written: readonly { channelId: number; time: Date; horizon: number }[],
) {
  if (!written.length) return;
  const times = new Map<number, { buckets: Set<number>; horizon: number }>();
  for (const w of written) {
    const entry = times.get(w.channelId) ?? { buckets: new Set<number>(), horizon: w.horizon };
    entry.buckets.add(Math.floor(w.time.getTime() / 1000));
    times.set(w.channelId, entry);
  }
  await recompute(db, parents(times, FINEST));
}

/** Recomputes the given finest-level buckets and, level by level, the buckets above them. */
async function recompute(db: Db, finest: Touched) {
  await recomputeBuckets(db, finest, FINEST, null);
  let touched = finest;
  for (let i = 1; i < ROLLUP_LEVELS.length; i++) {
    touched = parents(touched, ROLLUP_LEVELS[i]!, i === 1);
    await recomputeBuckets(db, touched, ROLLUP_LEVELS[i]!, ROLLUP_LEVELS[i - 1]!);
  }
}

/**
 * Rebuilds every level over [from, to) (epoch seconds, widened to whole coarsest buckets) for
 * the channels: the rollups of samples written in bulk (the demo history, or samples stored
 * before rollups existed). Buckets left without samples are removed. The finest level is
 * rebuilt from the samples and the coarser ones folded from it up to `to` at least, which
 * becomes the devices' horizon if it was behind. Run it in the transaction that wrote the samples.
 */
export async function rollUpRange(db: Db, channelIds: readonly number[], from: number, to: number) {
  if (!channelIds.length || to <= from) return;
  // A batch of pushes and the fold job write a device's rollups under its row lock: a rebuild
  // takes it too, in id order.
  const owners = await rows<{ c: number; d: number; h: number }>(
    db,
    sql`select c.id as c, d.id as d, date_part('epoch', d.rolled_until)::float8 as h from devices d
      join sensors s on s.device_id = d.id join channel_groups g on g.sensor_id = s.id
      join channels c on c.channel_group_id = g.id
      where c.id = any(${`{${channelIds.join(",")}}`}::int[]) order by d.id for update of d`,
  );
  const start = Math.floor(from / COARSEST) * COARSEST;
  const end = Math.ceil(to / COARSEST) * COARSEST;
  const ids = sql.join(
    channelIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Level by level in the key's order, so the delete reads a range of the primary key.
  for (const level of ROLLUP_LEVELS)
    await db.execute(sql`delete from sample_rollups where channel_id in (${ids}) and level = ${level}
      and bucket >= to_timestamp(${start}) and bucket < to_timestamp(${end})`);
  await rebuildFinest(db, ids, start, end);
  await foldChannels(
    db,
    owners.map((o) => ({ channelId: o.c, from: Math.min(o.h, start), until: Math.max(o.h, to) })),
  );
  const devices = [...new Set(owners.map((o) => o.d))];
  await db.execute(sql`update devices set rolled_until = greatest(rolled_until, to_timestamp(${to}))
    where id = any(${`{${devices.join(",")}}`}::int[])`);
}

/** The oldest sample of a channel and the oldest bucket of its finest rollup level (epoch seconds). */
export async function rollupCoverage(db: Db, channelId: number) {
  const [row] = await rows<{ sample: number | null; bucket: number | null }>(
    db,
    sql`select
      (select date_part('epoch', min(time)) from samples where channel_id = ${channelId}) as sample,
      (select date_part('epoch', min(bucket)) from sample_rollups
        where channel_id = ${channelId} and level = ${FINEST}) as bucket`,
  );
  return { oldestSample: row?.sample ?? null, oldestBucket: row?.bucket ?? null };
}

/** A channel's rolled-up rows: [bucket, min, max, minAt, maxAt, firstAt, lastAt] (epoch
 * seconds, values as stored), with the sum and count of all their samples. */
export interface RolledRows {
  rows: number[][];
  total: number;
  count: number;
}

/** Seconds after the bucket's start: small integers, quick to turn into text. */
const OFFSETS = sql.raw(`date_part('epoch', r.bucket)::int8, r.min_value, r.max_value,
  date_part('epoch', r.min_at - r.bucket)::int, date_part('epoch', r.max_at - r.bucket)::int,
  date_part('epoch', r.first_at - r.bucket)::int, date_part('epoch', r.last_at - r.bucket)::int`);

/**
 * Rows of each channel as one JSON text ("[[a,b],[c,d]]", built in SQL and read with
 * JSON.parse): PGlite and node-postgres hand over a few long texts far faster than thousands
 * of rows field by field, and JSON.parse reads numbers faster than splitting text.
 */
async function perChannel(db: Db, query: SQL) {
  const found = await rows<{ id: number; data: string | null; total: number | null; n: number | null }>(
    db,
    query,
  );
  return new Map(
    found.map((r) => [
      r.id,
      { rows: r.data ? (JSON.parse(r.data) as number[][]) : [], total: r.total ?? 0, count: r.n ?? 0 },
    ]),
  );
}
/** The aggregate that makes one JSON array of arrays from the rows' fields. */
const jsonRows = (fields: SQL) => sql`'[' || string_agg('[' || concat_ws(',', ${fields}) || ']', ',') || ']'`;

/** Turns the bucket-relative times of a row into epoch seconds, in place. */
const absolute = (r: number[]) => {
  for (let i = 3; i < 7; i++) r[i]! += r[0]!;
  return r;
};

/**
 * Each channel's buckets of `level` starting in [from, to) (epoch seconds). A coarser level
 * holds the finest buckets before its device's horizon (rollupFold.ts): the buckets from the
 * horizon's own on are composed here from what they hold and the finest buckets after it.
 */
export async function readRollups(
  db: Db,
  channelIds: readonly number[],
  level: number,
  from: number,
  to: number,
) {
  const ids = sql.join(
    channelIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const inRange = sql`r.bucket >= to_timestamp(${from}) and r.bucket < to_timestamp(${to})`;
  const source =
    level === FINEST
      ? sql`select r.* from sample_rollups r where r.channel_id in (${ids}) and r.level = ${level} and ${inRange}`
      : sql`select r.* from sample_rollups r join horizons h on h.c = r.channel_id
            where r.level = ${level} and ${inRange} and r.bucket < h.b
          union all
          select a.c, ${level}::int, a.b, ${SUMMARY} from (
            select r.channel_id as c, date_bin(${width(level)}, r.bucket, ${epoch}) as b, ${OF_FINER} from (
              select r.* from sample_rollups r join horizons h on h.c = r.channel_id
                where r.level = ${level} and ${inRange} and r.bucket >= h.b
              union all
              select r.* from sample_rollups r join horizons h on h.c = r.channel_id
                where r.level = ${FINEST} and r.bucket >= h.h and r.bucket >= to_timestamp(${from})
                  and r.bucket < to_timestamp(${to})) as r
            group by 1, 2) as a`;
  const horizons =
    level === FINEST
      ? sql``
      : sql`with horizons as (select c.id as c, d.rolled_until as h,
            date_bin(${width(level)}, d.rolled_until, ${epoch}) as b from channels c
          join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
          join devices d on d.id = s.device_id where c.id in (${ids}))`;
  const found = await perChannel(
    db,
    sql`${horizons} select r.channel_id as id, ${jsonRows(OFFSETS)} as data,
          sum(r.sum_value) as total, sum(r.sample_count)::int as n
        from (${source}) as r group by r.channel_id`,
  );
  return new Map([...found].map(([id, f]) => [id, { ...f, rows: f.rows.map(absolute) }] as const));
}

/**
 * Each channel's buckets of `level` inside its spans [from, to), each span read through the key
 * (offset 0 keeps the planner from turning the lateral lookup into a join over the whole table).
 */
export async function readRollupsIn(
  db: Db,
  level: number,
  spans: ReadonlyMap<number, readonly [number, number][]>,
) {
  const flat = [...spans].flatMap(([id, list]) => list.map(([from, to]) => [id, from, to] as const));
  if (!flat.length) return new Map<number, RolledRows>();
  const column = (i: 0 | 1 | 2, type: string) =>
    sql`${`{${flat.map((f) => f[i]).join(",")}}`}::${sql.raw(type)}`;
  const found = await perChannel(
    db,
    sql`select t.c as id, ${jsonRows(OFFSETS)} as data,
          sum(r.sum_value) as total, sum(r.sample_count)::int as n
        from unnest(${column(0, "int[]")}, ${column(1, "float8[]")}, ${column(2, "float8[]")}) as t(c, f, e)
        cross join lateral (select * from sample_rollups r where r.channel_id = t.c and r.level = ${level}
          and r.bucket >= to_timestamp(t.f) and r.bucket < to_timestamp(t.e) offset 0) as r
        group by t.c`,
  );
  return new Map([...found].map(([id, f]) => [id, { ...f, rows: f.rows.map(absolute) }] as const));
}

/** Each channel's raw samples as [time, value] in the spans [from, to) (to inclusive when flagged). */
export async function readSamples(
  db: Db,
  channelIds: readonly number[],
  spans: readonly [number, number, boolean][],
) {
  const ids = sql.join(
    channelIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const inSpans = sql.join(
    spans.map(
      ([from, to, inclusive]) =>
        sql`(time >= to_timestamp(${from}) and time ${sql.raw(inclusive ? "<=" : "<")} to_timestamp(${to}))`,
    ),
    sql` or `,
  );
  const found = await perChannel(
    db,
    sql`select channel_id as id, ${jsonRows(sql.raw("date_part('epoch', time)::int8, value"))} as data
        from samples where channel_id in (${ids}) and (${inSpans}) group by channel_id`,
  );
  return new Map([...found].map(([id, f]) => [id, f.rows] as const));
}
