import { sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";

/**
 * `samples` is partitioned by calendar month (UTC), one table `samples_YYYY_MM` each, plus
 * `samples_default` for readings outside every month (migration 0009). This module creates
 * the months ahead of time, so the readings of a running portal never land in the default.
 */

/** Any fixed number: instances creating partitions at the same time take turns. */
const PARTITION_LOCK = 727_002;
/** The oldest reading a push may carry (server/data/ingest.ts refuses older ones). */
const PUSH_MAX_AGE_MS = 7 * 86_400_000;

/** The first instant (UTC) of the month `months` after the month of `at`. */
export const monthStart = (at: Date, months = 0) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

/** The partition that holds the readings of `month`'s month: samples_2026_11. */
export const partitionName = (month: Date) =>
  `samples_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;

/** The names of the partitions `samples` has now (the default among them). */
export async function samplePartitions(db: Db): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'samples'::regclass order by 1`,
  );
  return found.map((r) => r.name);
}

/**
 * Makes sure the months a push may write to exist: from the month of the oldest reading a
 * push accepts (7 days before `now`) to `monthsAhead` months after `now`'s. Idempotent and
 * safe when several instances run it at once; returns the partitions it created.
 */
export function ensureSamplePartitions(db: Db, now: Date, monthsAhead = 3): Promise<string[]> {
  return ensureSamplePartitionsBetween(
    db,
    new Date(now.getTime() - PUSH_MAX_AGE_MS),
    monthStart(now, monthsAhead),
  );
}

/** Creates the partition of every month from `from`'s to `to`'s (both included) that is missing. */
export async function ensureSamplePartitionsBetween(db: Db, from: Date, to: Date): Promise<string[]> {
  const existing = new Set(await samplePartitions(db));
  const created: string[] = [];
  for (let m = monthStart(from); m <= to; m = monthStart(m, 1))
    if (!existing.has(partitionName(m)) && (await createMonth(db, m))) created.push(partitionName(m));
  return created;
}

/**
 * Creates one month's partition under a transaction-scoped advisory lock (a second instance
 * waits, then finds it made). Readings of that month already in the default partition (stored
 * before the month existed: seeded history, a database restored from elsewhere) would make
 * PostgreSQL refuse the new partition, so they move into it first.
 */
function createMonth(db: Db, month: Date): Promise<boolean> {
  const name = partitionName(month);
  const bounds = sql.raw(
    `for values from ('${month.toISOString()}') to ('${monthStart(month, 1).toISOString()}')`,
  );
  const inMonth = sql`"time" >= ${month.toISOString()}::timestamptz
    and "time" < ${monthStart(month, 1).toISOString()}::timestamptz`;
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const [state] = await rows<{ present: boolean; stray: boolean }>(
      tx,
      sql`select to_regclass(${name}) is not null as present,
        exists (select 1 from samples_default where ${inMonth}) as stray`,
    );
    if (state!.present) return false;
    if (!state!.stray) {
      await tx.execute(
        sql`create table if not exists ${sql.identifier(name)} partition of samples ${bounds}`,
      );
      return true;
    }
    // A table of the same shape takes the rows, then becomes the partition (attaching builds
    // its primary key index and foreign key from the parent's).
    await tx.execute(sql`create table ${sql.identifier(name)} (like samples including defaults)`);
    await tx.execute(sql`with moved as (delete from samples_default where ${inMonth}
      returning channel_id, "time", value) insert into ${sql.identifier(name)} select * from moved`);
    await tx.execute(sql`alter table samples attach partition ${sql.identifier(name)} ${bounds}`);
    return true;
  });
}
