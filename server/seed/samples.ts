import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * Inserts deterministic samples in SQL: each value is a function of its channel and time
 * (a daily wave plus a fixed pseudo-random wobble), so a reseed writes the same numbers.
 * With `endValue` the curve is moved to end on it at `range.end` (its base then cancels):
 * a device card's current value and the last point of its chart agree.
 */
export async function seedSamples(
  db: Db,
  channelId: number,
  shape: { base: number; amplitude: number; noise: number },
  range: { end: Date; days: number; stepMinutes: number; endValue?: number },
) {
  const start = new Date(range.end.getTime() - range.days * 86_400_000);
  const end = sql`${range.end.toISOString()}::timestamptz`;
  const atT = curve(channelId, shape, sql`t`);
  const value =
    range.endValue === undefined
      ? atT
      : sql`(${range.endValue}::float8 + ${atT} - ${curve(channelId, shape, end)})`;
  await db.execute(sql`
    insert into samples (channel_id, time, value)
    select ${channelId}, t, round(${value}::numeric, 2)::float8
    from generate_series(${start.toISOString()}::timestamptz, ${end},
      make_interval(mins => ${range.stepMinutes})) as t
    on conflict do nothing`);
}

/** A value as a function of channel and time: a daily wave plus a fixed pseudo-random wobble. */
function curve(channelId: number, shape: { base: number; amplitude: number; noise: number }, t: SQL) {
  const e = sql`extract(epoch from ${t})::float8`;
  const wobble = sql`(sin(${e} * 12.9898 + ${channelId}) * 43758.5453)`;
  return sql`(${shape.base}::float8 + ${shape.amplitude}::float8 * sin(2 * pi() * ${e} / 86400 + ${channelId})
    + ${shape.noise}::float8 * (${wobble} - floor(${wobble})))`;
}
