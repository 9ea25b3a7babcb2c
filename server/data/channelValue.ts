import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channels } from "../db/schema/index.ts";

/**
 * A channel's latest reading: its newest sample, unless the value stored on the channel row
 * is newer. Pushes write samples only (writing each channel's row too was the largest part of
 * a push's database time, docs/scaling.md); the row's `value` at `value_at` is what was known
 * without a sample (a seeded value), moved up to the newest sample by the fold job
 * (storeLatestValues). A sample at `value_at` itself counts, as a correction of it.
 * `samples` has a default partition, so its months cannot be read newest first: the bound on
 * `value_at` is what keeps the read to one or two months' partitions (pruned as it runs).
 * For a select that names `channels` unaliased.
 */
export const latestValue = sql<number | null>`coalesce((select s.value from samples s
  where s.channel_id = ${channels.id} and s.time >= coalesce(${channels.valueAt}, '-infinity'::timestamptz)
  order by s.time desc limit 1), ${channels.value})`;

/**
 * Stores the newest sample of each of these channels on its row, never moving a value back (a
 * correction at the row's own second is taken, as the read takes it):
 * the fold job (rollupFold.ts) calls it for the devices it folds, once a quarter hour each, so
 * `latestValue` reads at most the last half hour's partitions.
 */
export async function storeLatestValues(db: Db, channelIds: readonly number[]) {
  if (!channelIds.length) return;
  await db.execute(sql`update channels c set value = n.value, value_at = n.time
    from (select c2.id, l.value, l.time from channels c2
      cross join lateral (select s.value, s.time from samples s
        where s.channel_id = c2.id and s.time >= coalesce(c2.value_at, '-infinity'::timestamptz)
        order by s.time desc limit 1) l
      where c2.id = any(${`{${channelIds.join(",")}}`}::int[])) n
    where c.id = n.id and (c.value_at is null or n.time > c.value_at
      or (n.time = c.value_at and n.value is distinct from c.value))`);
}
