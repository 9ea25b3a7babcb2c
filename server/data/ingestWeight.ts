import { sql } from "drizzle-orm";
import { rows as rowsOf, type Db } from "../db/client.ts";
import { bucketsOf, FINEST_SECONDS, type Row } from "./ingestBatch.ts";

/*
 * What a push will cost its transaction. New readings are folded into their rollup buckets in
 * one statement whatever their number; a reading stored before (a repeat or a correction) makes
 * its buckets be recomputed from the samples, level by level: about four reads per repeated
 * bucket, a second or more for 2,000 readings re-sent over the last week. Such a push is
 * stored in a transaction of its own (data/ingest.ts), not in the batch the other devices'
 * pushes share, and its key is charged for the work (routes/devicePush.ts).
 */

/** More repeated finest buckets than this and a push is stored alone. */
export const SOLO_REPEATED_BUCKETS = 64;
/** Recomputed finest buckets per token of the key's push bucket (50 a second): 200 buckets a second a key. */
export const BUCKETS_PER_TOKEN = 4;

/** Tokens a stored push costs its key beyond the one every push takes. */
export const workTokens = (recomputed: number) => Math.floor(recomputed / BUCKETS_PER_TOKEN);

/**
 * Whether a push would recompute more than SOLO_REPEATED_BUCKETS buckets. A push touching no
 * more buckets than that cannot, and costs no query (a device's usual push: one bucket per
 * channel); otherwise one indexed read counts the buckets of its readings already stored.
 */
export async function isHeavyPush(db: Db, rows: readonly Row[]): Promise<boolean> {
  if (bucketsOf(rows).size <= SOLO_REPEATED_BUCKETS) return false;
  const [found] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct (s.channel_id, floor(date_part('epoch', s.time) / ${FINEST_SECONDS})))::int as n
        from unnest(${`{${rows.map((r) => r.channelId).join(",")}}`}::int[],
          ${`{${rows.map((r) => r.time.toISOString()).join(",")}}`}::timestamptz[]) as v(c, t)
        join samples s on s.channel_id = v.c and s.time = v.t`,
  );
  return (found?.n ?? 0) > SOLO_REPEATED_BUCKETS;
}
