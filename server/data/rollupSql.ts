import { sql } from "drizzle-orm";

// The rollups' SQL pieces shared by their writers and readers (rollups.ts, rollupFold.ts, rollupReads.ts).

export const COLUMNS = sql.raw(`(channel_id, level, bucket, min_value, max_value, sum_value, sample_count,
  min_at, max_at, first_at, last_at)`);
export const UPSERT = sql`on conflict (channel_id, level, bucket) do update set
  min_value = excluded.min_value, max_value = excluded.max_value, sum_value = excluded.sum_value,
  sample_count = excluded.sample_count, min_at = excluded.min_at, max_at = excluded.max_at,
  first_at = excluded.first_at, last_at = excluded.last_at`;
/** A bucket's summary of raw samples (s), or of finer rolled-up buckets (r). */
export const OF_SAMPLES =
  sql.raw(`min(s.value) as lo, max(s.value) as hi, sum(s.value) as total, count(*)::int as n,
  (array_agg(s.time order by s.value, s.time))[1] as lo_at,
  (array_agg(s.time order by s.value desc, s.time))[1] as hi_at, min(s.time) as first_at, max(s.time) as last_at`);
export const OF_FINER = sql.raw(`min(r.min_value) as lo, max(r.max_value) as hi, sum(r.sum_value) as total,
  sum(r.sample_count)::int as n, (array_agg(r.min_at order by r.min_value, r.min_at))[1] as lo_at,
  (array_agg(r.max_at order by r.max_value desc, r.max_at))[1] as hi_at, min(r.first_at) as first_at,
  max(r.last_at) as last_at`);
export const SUMMARY = sql.raw(`a.lo, a.hi, a.total, a.n, a.lo_at, a.hi_at, a.first_at, a.last_at`);
export const width = (seconds: number) => sql`make_interval(secs => ${seconds})`;
export const epoch = sql.raw(`timestamptz '1970-01-01 00:00:00+00'`);
