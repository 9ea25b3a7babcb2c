import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ROLLUP_LEVELS } from "../../src/domain/downsample.ts";
import { recomputeSamples } from "./rollups.ts";

/** A sample a batch wrote, and whether it was new (not the overwrite of one already stored). */
export interface WrittenSample {
  channelId: number;
  time: Date;
  value: number;
  fresh: boolean;
  /** Its device's horizon (epoch seconds): the rollups hold the samples before it (rollupFold.ts). */
  horizon: number;
}

/** Whether a sample is older than its device's horizon (pushed late), so every level takes it now. */
const isLate = (w: WrittenSample) => w.time.getTime() / 1000 < w.horizon;

const arr = (values: readonly (string | number)[], type: string) =>
  sql`${`{${values.join(",")}}`}::${sql.raw(type)}`;

/**
 * Brings the rollups up to date with a batch's samples older than their device's horizon
 * (pushed late): the fold job (rollupFold.ts) takes the rest, so a push of current readings
 * writes no rollup at all. New samples are folded into their buckets in one statement, all
 * levels at once, without reading the samples again: a
 * bucket's minimum, maximum, sum, count and first and last times follow from the new samples
 * (the extremes' times by the rule the recomputation uses: the earliest of equal values).
 * Overwritten samples may have been a bucket's extreme, so their buckets are recomputed from
 * the samples (rollups.ts). Run it under the batch's device row locks.
 */
export async function rollUpBatch(db: Db, written: readonly WrittenSample[]) {
  const late = written.filter(isLate);
  const fresh = late.filter((w) => w.fresh);
  await recomputeSamples(
    db,
    late.filter((w) => !w.fresh),
  );
  if (!fresh.length) return;
  await db.execute(sql`
    insert into sample_rollups as r (channel_id, level, bucket, min_value, max_value, sum_value, sample_count,
      min_at, max_at, first_at, last_at)
    select s.c, l.level, date_bin(make_interval(secs => l.level), s.t, timestamptz '1970-01-01 00:00:00+00') as b,
      min(s.v), max(s.v), sum(s.v), count(*)::int,
      (array_agg(s.t order by s.v, s.t))[1], (array_agg(s.t order by s.v desc, s.t))[1], min(s.t), max(s.t)
    from unnest(${arr(
      fresh.map((w) => w.channelId),
      "int[]",
    )}, ${arr(
      fresh.map((w) => w.time.toISOString()),
      "timestamptz[]",
    )}, ${arr(
      fresh.map((w) => w.value),
      "float8[]",
    )}) as s(c, t, v)
    cross join unnest(${arr([...ROLLUP_LEVELS], "int[]")}) as l(level)
    group by 1, 2, 3
    order by 1, 2, 3
    on conflict (channel_id, level, bucket) do update set
      min_at = case when excluded.min_value < r.min_value
        or (excluded.min_value = r.min_value and excluded.min_at < r.min_at) then excluded.min_at else r.min_at end,
      max_at = case when excluded.max_value > r.max_value
        or (excluded.max_value = r.max_value and excluded.max_at < r.max_at) then excluded.max_at else r.max_at end,
      min_value = least(r.min_value, excluded.min_value),
      max_value = greatest(r.max_value, excluded.max_value),
      sum_value = r.sum_value + excluded.sum_value,
      sample_count = r.sample_count + excluded.sample_count,
      first_at = least(r.first_at, excluded.first_at),
      last_at = greatest(r.last_at, excluded.last_at)`);
}
