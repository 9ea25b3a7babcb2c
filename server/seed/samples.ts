import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * Inserts deterministic samples in SQL: each value is a function of its channel and time
 * (a daily wave plus a fixed pseudo-random wobble), so a reseed writes the same numbers.
 */
export async function seedSamples(
  db: Db,
  channelId: number,
  shape: { base: number; amplitude: number; noise: number },
  range: { end: Date; days: number; stepMinutes: number },
) {
  const start = new Date(range.end.getTime() - range.days * 86_400_000);
  const e = sql`extract(epoch from t)::float8`;
  const wobble = sql`(sin(${e} * 12.9898 + ${channelId}) * 43758.5453)`;
  await db.execute(sql`
    insert into samples (channel_id, time, value)
    select ${channelId}, t,
      round((${shape.base}::float8 + ${shape.amplitude}::float8 * sin(2 * pi() * ${e} / 86400 + ${channelId})
        + ${shape.noise}::float8 * (${wobble} - floor(${wobble})))::numeric, 2)::float8
    from generate_series(${start.toISOString()}::timestamptz, ${range.end.toISOString()}::timestamptz,
      make_interval(mins => ${range.stepMinutes})) as t
    on conflict do nothing`);
}
