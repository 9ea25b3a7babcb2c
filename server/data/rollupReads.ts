import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { epoch, OF_FINER, SUMMARY, width } from "./rollupSql.ts";

// The rollups' readers: what a chart, its PDF and a channel's history read (chartData.ts), the
// stored buckets before each device's horizon composed with its samples after it
// (rollupFold.ts). The writers are in rollups.ts.

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

/** Each given channel's device's horizon (h) and the start of its bucket of `level` (b), as a CTE. */
const horizons = (ids: SQL, level: number) => sql`with horizons as (select c.id as c, d.rolled_until as h,
    date_bin(${width(level)}, d.rolled_until, ${epoch}) as b from channels c
  join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
  join devices d on d.id = s.device_id where c.id in (${ids}))`;

/** A sample as a bucket of `level` holding it alone, in sample_rollups' columns. */
const asBucket = (
  level: number,
) => sql`s.channel_id, ${level}::int, date_bin(${width(level)}, s.time, ${epoch}),
  s.value, s.value, s.value, 1, s.time, s.time, s.time, s.time`;

/**
 * The buckets of `level` of channel `c` whose start `range(column)` admits, as the readers see
 * them: the rollups hold the samples older than the device's horizon (rollupFold.ts), so the
 * buckets before the horizon's own are read as stored, and from it on each is summed from what
 * it holds and the samples after the horizon (the `horizons` row of `c` is `h`).
 */
const composed = (level: number, c: SQL, range: (column: string) => SQL) => sql`
  select r.* from sample_rollups r where r.channel_id = ${c} and r.level = ${level} and ${range("r.bucket")}
    and r.bucket < h.b
  union all
  select a.c, ${level}::int, a.b, ${SUMMARY} from (
    select r.channel_id as c, r.bucket as b, ${OF_FINER} from (
      select r.* from sample_rollups r where r.channel_id = ${c} and r.level = ${level} and ${range("r.bucket")}
        and r.bucket >= h.b
      union all
      select ${asBucket(level)} from samples s where s.channel_id = ${c} and ${range("s.time")} and s.time >= h.h
    ) as r group by 1, 2) as a`;

/** Each channel's buckets of `level` starting in [from, to) (epoch seconds, whole buckets of it). */
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
  const range = (column: string) =>
    sql`${sql.raw(column)} >= to_timestamp(${from}) and ${sql.raw(column)} < to_timestamp(${to})`;
  const found = await perChannel(
    db,
    sql`${horizons(ids, level)} select h.c as id, ${jsonRows(OFFSETS)} as data,
          sum(r.sum_value) as total, sum(r.sample_count)::int as n
        from horizons h cross join lateral (${composed(level, sql.raw("h.c"), range)}) as r
        group by h.c`,
  );
  return new Map([...found].map(([id, f]) => [id, { ...f, rows: f.rows.map(absolute) }] as const));
}

/**
 * Each channel's buckets of `level` inside its spans [from, to) (whole buckets of it), each span
 * read through the key.
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
  const ids = sql.join(
    [...spans.keys()].map((id) => sql`${id}`),
    sql`, `,
  );
  const range = (col: string) =>
    sql`${sql.raw(col)} >= to_timestamp(t.f) and ${sql.raw(col)} < to_timestamp(t.e)`;
  const found = await perChannel(
    db,
    sql`${horizons(ids, level)} select t.c as id, ${jsonRows(OFFSETS)} as data,
          sum(r.sum_value) as total, sum(r.sample_count)::int as n
        from unnest(${column(0, "int[]")}, ${column(1, "float8[]")}, ${column(2, "float8[]")}) as t(c, f, e)
        join horizons h on h.c = t.c
        cross join lateral (${composed(level, sql.raw("t.c"), range)}) as r
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
