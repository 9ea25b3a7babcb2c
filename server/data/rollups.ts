import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";

/** Any fixed number: the namespace of the per-channel rollup locks. */
const ROLLUP_LOCK = 727_002;
const FINEST = ROLLUP_LEVELS[0];
const COARSEST = ROLLUP_LEVELS[ROLLUP_LEVELS.length - 1]!;

/** Channel and bucket start pairs as two SQL arrays (ids, timestamptz), for unnest. */
function pairs(touched: ReadonlyMap<number, ReadonlySet<number>>): { ids: SQL; starts: SQL } {
  const ids: number[] = [];
  const starts: string[] = [];
  for (const [id, set] of touched)
    for (const s of set) {
      ids.push(id);
      starts.push(new Date(s * 1000).toISOString());
    }
  return { ids: sql`${`{${ids.join(",")}}`}::int[]`, starts: sql`${`{${starts.join(",")}}`}::timestamptz[]` };
}

/** The buckets of `level` holding the given buckets of a finer level (or times). */
function parents(touched: ReadonlyMap<number, ReadonlySet<number>>, level: number) {
  const out = new Map<number, Set<number>>();
  for (const [id, set] of touched) out.set(id, new Set([...set].map((s) => Math.floor(s / level) * level)));
  return out;
}

const COLUMNS = sql.raw(`(channel_id, level, bucket, min_value, max_value, sum_value, sample_count,
  min_at, max_at, first_at, last_at)`);
const UPSERT = sql`on conflict (channel_id, level, bucket) do update set
  min_value = excluded.min_value, max_value = excluded.max_value, sum_value = excluded.sum_value,
  sample_count = excluded.sample_count, min_at = excluded.min_at, max_at = excluded.max_at,
  first_at = excluded.first_at, last_at = excluded.last_at`;
/** A bucket's summary of raw samples (s), or of finer rolled-up buckets (r). */
const OF_SAMPLES = sql.raw(`min(s.value) as lo, max(s.value) as hi, sum(s.value) as total, count(*)::int as n,
  (array_agg(s.time order by s.value, s.time))[1] as lo_at,
  (array_agg(s.time order by s.value desc, s.time))[1] as hi_at, min(s.time) as first_at, max(s.time) as last_at`);
const OF_FINER = sql.raw(`min(r.min_value) as lo, max(r.max_value) as hi, sum(r.sum_value) as total,
  sum(r.sample_count)::int as n, (array_agg(r.min_at order by r.min_value, r.min_at))[1] as lo_at,
  (array_agg(r.max_at order by r.max_value desc, r.max_at))[1] as hi_at, min(r.first_at) as first_at,
  max(r.last_at) as last_at`);
const SUMMARY = sql.raw(`a.lo, a.hi, a.total, a.n, a.lo_at, a.hi_at, a.first_at, a.last_at`);
const width = (seconds: number) => sql`make_interval(secs => ${seconds})`;
const epoch = sql.raw(`timestamptz '1970-01-01 00:00:00+00'`);

/**
 * Recomputes the given buckets of `level`, each read on its own through the primary key
 * (a lateral lookup: a push touches a bucket or two of channels with a year of samples).
 */
async function recomputeBuckets(
  db: Db,
  touched: ReadonlyMap<number, ReadonlySet<number>>,
  level: number,
  finer: number | null,
) {
  const { ids, starts } = pairs(touched);
  const inside = (col: SQL) => sql`${col} >= t.b and ${col} < t.b + ${width(level)}`;
  const summary =
    finer === null
      ? sql`select ${OF_SAMPLES} from samples s where s.channel_id = t.c and ${inside(sql.raw("s.time"))}`
      : sql`select ${OF_FINER} from sample_rollups r
            where r.channel_id = t.c and r.level = ${finer} and ${inside(sql.raw("r.bucket"))}`;
  await db.execute(sql`
    insert into sample_rollups ${COLUMNS}
    select t.c, ${level}, t.b, ${SUMMARY}
    from unnest(${ids}, ${starts}) as t(c, b) cross join lateral (${summary}) as a
    where a.n > 0
    ${UPSERT}`);
}

/** Rebuilds `level` over [start, end) for the channels in one grouped pass (the range is aligned). */
async function rebuildLevel(
  db: Db,
  ids: SQL,
  level: number,
  finer: number | null,
  start: number,
  end: number,
) {
  const range = (col: string) =>
    sql`${sql.raw(col)} >= to_timestamp(${start}) and ${sql.raw(col)} < to_timestamp(${end})`;
  const grouped =
    finer === null
      ? sql`select s.channel_id as c, date_bin(${width(level)}, s.time, ${epoch}) as b, ${OF_SAMPLES}
            from samples s where s.channel_id in (${ids}) and ${range("s.time")} group by 1, 2`
      : sql`select r.channel_id as c, date_bin(${width(level)}, r.bucket, ${epoch}) as b, ${OF_FINER}
            from sample_rollups r where r.channel_id in (${ids}) and r.level = ${finer} and ${range("r.bucket")}
            group by 1, 2`;
  await db.execute(sql`insert into sample_rollups ${COLUMNS}
    select a.c, ${level}, a.b, ${SUMMARY} from (${grouped}) as a ${UPSERT}`);
}

/**
 * Brings every level's buckets that hold the given samples up to date, recomputed from the
 * samples (then level from level), so an overwritten reading or one pushed late leaves them
 * exact. Run it in the transaction that wrote the samples: a lock per channel makes a second
 * push of the same channel wait, so its recomputation sees the first one's samples.
 */
export async function rollUpSamples(db: Db, written: readonly { channelId: number; time: Date }[]) {
  if (!written.length) return;
  const times = new Map<number, Set<number>>();
  for (const w of written) {
    const set = times.get(w.channelId) ?? new Set<number>();
    set.add(Math.floor(w.time.getTime() / 1000));
    times.set(w.channelId, set);
  }
  await lockChannels(db, [...times.keys()]);
  await recompute(db, parents(times, FINEST));
}

/**
 * rollUpSamples without the channel locks: for a writer already holding the channels' devices'
 * rows (a batch of pushes, data/rollupBatch.ts), which rollUpRange takes too.
 */
export async function recomputeSamples(db: Db, written: readonly { channelId: number; time: Date }[]) {
  if (!written.length) return;
  const times = new Map<number, Set<number>>();
  for (const w of written) {
    const set = times.get(w.channelId) ?? new Set<number>();
    set.add(Math.floor(w.time.getTime() / 1000));
    times.set(w.channelId, set);
  }
  await recompute(db, parents(times, FINEST));
}

/**
 * Holds the channels' rollup locks until the transaction ends. One statement with the ids
 * sorted: two writers lock the channels they share in the same order.
 */
async function lockChannels(db: Db, ids: readonly number[]) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await db.execute(
    sql`select pg_advisory_xact_lock(${ROLLUP_LOCK}, c) from unnest(${`{${sorted.join(",")}}`}::int[]) as c`,
  );
}

/** Recomputes the given finest-level buckets and, level by level, the buckets above them. */
async function recompute(db: Db, finest: ReadonlyMap<number, ReadonlySet<number>>) {
  await recomputeBuckets(db, finest, FINEST, null);
  let touched = finest;
  for (let i = 1; i < ROLLUP_LEVELS.length; i++) {
    touched = parents(touched, ROLLUP_LEVELS[i]!);
    await recomputeBuckets(db, touched, ROLLUP_LEVELS[i]!, ROLLUP_LEVELS[i - 1]!);
  }
}

/**
 * Rebuilds every level over [from, to) (epoch seconds, widened to whole coarsest buckets) for
 * the channels: the rollups of samples written in bulk (the demo history, or samples stored
 * before rollups existed). Buckets left without samples are removed. Run it in the
 * transaction that wrote the samples.
 */
export async function rollUpRange(db: Db, channelIds: readonly number[], from: number, to: number) {
  if (!channelIds.length || to <= from) return;
  await lockChannels(db, channelIds);
  // A batch of pushes writes its channels' rollups under its devices' row locks alone (a lock
  // per channel of 200 pushes overflowed the lock table): a rebuild waits for those rows too.
  await db.execute(sql`select d.id from devices d where d.id in (select s.device_id from sensors s
      join channel_groups g on g.sensor_id = s.id join channels c on c.channel_group_id = g.id
      where c.id = any(${`{${channelIds.join(",")}}`}::int[])) order by d.id for update of d`);
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
  for (const [i, level] of ROLLUP_LEVELS.entries())
    await rebuildLevel(db, ids, level, i === 0 ? null : ROLLUP_LEVELS[i - 1]!, start, end);
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

/** Each channel's buckets of `level` starting in [from, to) (epoch seconds). */
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
  const found = await perChannel(
    db,
    sql`select r.channel_id as id, ${jsonRows(OFFSETS)} as data,
          sum(r.sum_value) as total, sum(r.sample_count)::int as n
        from sample_rollups r where r.channel_id in (${ids}) and r.level = ${level}
          and r.bucket >= to_timestamp(${from}) and r.bucket < to_timestamp(${to})
        group by r.channel_id`,
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
