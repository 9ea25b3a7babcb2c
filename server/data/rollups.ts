import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";

/** Any fixed number: the namespace of the per-channel rollup locks. */
const ROLLUP_LOCK = 727_002;
const FINEST = ROLLUP_LEVELS[0];
const COARSEST = ROLLUP_LEVELS[ROLLUP_LEVELS.length - 1]!;

/** Channel and bucket start (epoch seconds) pairs as two SQL arrays, for unnest. */
function pairs(touched: ReadonlyMap<number, ReadonlySet<number>>): { ids: SQL; starts: SQL } {
  const ids: number[] = [];
  const starts: number[] = [];
  for (const [id, set] of touched)
    for (const s of set) {
      ids.push(id);
      starts.push(s);
    }
  return { ids: sql`${`{${ids.join(",")}}`}::int[]`, starts: sql`${`{${starts.join(",")}}`}::float8[]` };
}

/** The buckets of `level` holding the given buckets of a finer level (or times). */
function parents(touched: ReadonlyMap<number, ReadonlySet<number>>, level: number) {
  const out = new Map<number, Set<number>>();
  for (const [id, set] of touched) out.set(id, new Set([...set].map((s) => Math.floor(s / level) * level)));
  return out;
}

const UPSERT = sql`on conflict (channel_id, level, bucket) do update set
  min_value = excluded.min_value, max_value = excluded.max_value, sum_value = excluded.sum_value,
  sample_count = excluded.sample_count, min_at = excluded.min_at, max_at = excluded.max_at,
  first_at = excluded.first_at, last_at = excluded.last_at`;

/** Recomputes the finest level's buckets from the samples in them. */
async function fromSamples(db: Db, touched: ReadonlyMap<number, ReadonlySet<number>>) {
  const { ids, starts } = pairs(touched);
  await db.execute(sql`
    insert into sample_rollups (channel_id, level, bucket, min_value, max_value, sum_value, sample_count,
      min_at, max_at, first_at, last_at)
    select t.c, ${FINEST}, to_timestamp(t.b), min(s.value), max(s.value), sum(s.value), count(*)::int,
      (array_agg(s.time order by s.value, s.time))[1], (array_agg(s.time order by s.value desc, s.time))[1],
      min(s.time), max(s.time)
    from unnest(${ids}, ${starts}) as t(c, b)
    join samples s on s.channel_id = t.c and s.time >= to_timestamp(t.b) and s.time < to_timestamp(t.b + ${FINEST})
    group by t.c, t.b
    ${UPSERT}`);
}

/** Recomputes a level's buckets from the finer level's buckets inside them. */
async function fromFiner(
  db: Db,
  touched: ReadonlyMap<number, ReadonlySet<number>>,
  level: number,
  finer: number,
) {
  const { ids, starts } = pairs(touched);
  await db.execute(sql`
    insert into sample_rollups (channel_id, level, bucket, min_value, max_value, sum_value, sample_count,
      min_at, max_at, first_at, last_at)
    select t.c, ${level}, to_timestamp(t.b), min(r.min_value), max(r.max_value), sum(r.sum_value),
      sum(r.sample_count)::int,
      (array_agg(r.min_at order by r.min_value, r.min_at))[1],
      (array_agg(r.max_at order by r.max_value desc, r.max_at))[1],
      min(r.first_at), max(r.last_at)
    from unnest(${ids}, ${starts}) as t(c, b)
    join sample_rollups r on r.channel_id = t.c and r.level = ${finer}
      and r.bucket >= to_timestamp(t.b) and r.bucket < to_timestamp(t.b + ${level})
    group by t.c, t.b
    ${UPSERT}`);
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
  await fromSamples(db, finest);
  let touched = finest;
  for (let i = 1; i < ROLLUP_LEVELS.length; i++) {
    touched = parents(touched, ROLLUP_LEVELS[i]!);
    await fromFiner(db, touched, ROLLUP_LEVELS[i]!, ROLLUP_LEVELS[i - 1]!);
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
  const start = Math.floor(from / COARSEST) * COARSEST;
  const end = Math.ceil(to / COARSEST) * COARSEST;
  await db.execute(sql`delete from sample_rollups
    where channel_id in (${sql.join(
      channelIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and bucket >= to_timestamp(${start}) and bucket < to_timestamp(${end})`);
  const buckets = new Set<number>();
  for (let b = start; b < end; b += FINEST) buckets.add(b);
  await recompute(db, new Map(channelIds.map((id) => [id, buckets])));
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
