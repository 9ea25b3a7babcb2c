import { sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";

/**
 * `samples` is partitioned by calendar month (UTC), one table `samples_YYYY_MM` each, plus
 * `samples_default` for readings outside every month (migration 0009); `sample_rollups` the
 * same by its bucket (`sample_rollups_YYYY_MM`, migration 0020). This module creates the months
 * ahead of time, so the readings of a running portal never land in the default, and drops the
 * months retention lets go (server/flows/dataRetention.ts).
 */

/** The tables partitioned by month, and the column each is partitioned on. */
export const MONTHLY_TABLES = { samples: "time", sample_rollups: "bucket" } as const;
export type MonthlyTable = keyof typeof MONTHLY_TABLES;
/**
 * Each push updates its channels' current buckets of every level in place: a rollup month
 * leaves room on its pages so those updates stay on the page (HOT, no new index entries).
 * Readings are only inserted and keep full pages. Migration 0023 gave the existing months the same.
 */
const STORAGE: Record<MonthlyTable, string> = { samples: "", sample_rollups: "with (fillfactor = 85)" };

/** Any fixed number: instances creating partitions at the same time take turns. */
const PARTITION_LOCK = 727_002;
/** The oldest reading a push may carry (server/data/ingest.ts refuses older ones). */
export const PUSH_MAX_AGE_MS = 7 * 86_400_000;
/** How long a drop waits for the parent table's readers before it gives up until the next run. */
const LOCK_TIMEOUT = "5s";

/** The first instant (UTC) of the month `months` after the month of `at`. */
export const monthStart = (at: Date, months = 0) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

/** The partition that holds the rows of `month`'s month: samples_2026_11, sample_rollups_2026_11. */
export const partitionName = (month: Date, table: MonthlyTable = "samples") =>
  `${table}_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;

/** The names of the partitions `table` has now (the default among them). */
export async function samplePartitions(db: Db, table: MonthlyTable = "samples"): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${table}::regclass order by 1`,
  );
  return found.map((r) => r.name);
}

/** The monthly partitions of `table` (not the default) with the first instant of their month. */
export async function monthPartitions(db: Db, table: MonthlyTable): Promise<{ name: string; month: Date }[]> {
  const pattern = new RegExp(`^${table}_(\\d{4})_(\\d{2})$`);
  return (await samplePartitions(db, table)).flatMap((name) => {
    const m = pattern.exec(name);
    return m ? [{ name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
  });
}

/**
 * Makes sure the months a push may write to exist, of the readings and of their rollups: from
 * the month of the oldest reading a push accepts (7 days before `now`) to `monthsAhead` months
 * after `now`'s. Idempotent and safe when several instances run it at once; returns the
 * partitions it created.
 */
export function ensureSamplePartitions(db: Db, now: Date, monthsAhead = 3): Promise<string[]> {
  return ensureSamplePartitionsBetween(
    db,
    new Date(now.getTime() - PUSH_MAX_AGE_MS),
    monthStart(now, monthsAhead),
  );
}

/**
 * Creates the partition of every month from `from`'s to `to`'s (both included) that is
 * missing, of the readings and of their rollups.
 */
export async function ensureSamplePartitionsBetween(db: Db, from: Date, to: Date): Promise<string[]> {
  const created: string[] = [];
  for (const table of Object.keys(MONTHLY_TABLES) as MonthlyTable[]) {
    const existing = new Set(await samplePartitions(db, table));
    for (let m = monthStart(from); m <= to; m = monthStart(m, 1))
      if (!existing.has(partitionName(m, table)) && (await createMonth(db, table, m)))
        created.push(partitionName(m, table));
  }
  return created;
}

/**
 * Creates one month's partition under a transaction-scoped advisory lock (a second instance
 * waits, then finds it made). Readings of that month already in the default partition (stored
 * before the month existed: seeded history, a database restored from elsewhere) would make
 * PostgreSQL refuse the new partition, so they move into it first.
 */
function createMonth(db: Db, table: MonthlyTable, month: Date): Promise<boolean> {
  const name = partitionName(month, table);
  const parent = sql.identifier(table);
  const fallback = sql.identifier(`${table}_default`);
  const column = sql.identifier(MONTHLY_TABLES[table]);
  const bounds = sql.raw(
    `for values from ('${month.toISOString()}') to ('${monthStart(month, 1).toISOString()}')`,
  );
  const storage = sql.raw(STORAGE[table]);
  const inMonth = sql`${column} >= ${month.toISOString()}::timestamptz
    and ${column} < ${monthStart(month, 1).toISOString()}::timestamptz`;
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const [state] = await rows<{ present: boolean; stray: boolean }>(
      tx,
      sql`select to_regclass(${name}) is not null as present,
        exists (select 1 from ${fallback} where ${inMonth}) as stray`,
    );
    if (state!.present) return false;
    if (!state!.stray) {
      await tx.execute(
        sql`create table if not exists ${sql.identifier(name)} partition of ${parent} ${bounds} ${storage}`,
      );
      return true;
    }
    // A table of the same shape takes the rows, then becomes the partition (attaching builds
    // its primary key index and foreign key from the parent's).
    await tx.execute(
      sql`create table ${sql.identifier(name)} (like ${parent} including defaults) ${storage}`,
    );
    await tx.execute(sql`with moved as (delete from ${fallback} where ${inMonth}
      returning *) insert into ${sql.identifier(name)} select * from moved`);
    await tx.execute(sql`alter table ${parent} attach partition ${sql.identifier(name)} ${bounds}`);
    return true;
  });
}

/**
 * Drops one monthly partition of `table`, if it is still one, under the lock the creation
 * takes, so of instances dropping at once one drops it and the others find it gone; true when
 * this call dropped it. Dropping a partition waits for the reads of its parent table and holds
 * new ones behind it, so it gives up after LOCK_TIMEOUT (the next run tries again).
 */
export function dropMonth(db: Db, table: MonthlyTable, name: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
    const [state] = await rows<{ present: boolean }>(
      tx,
      sql`select exists (select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${table}::regclass and c.relname = ${name}) as present`,
    );
    if (!state!.present) return false;
    await tx.execute(sql`drop table ${sql.identifier(name)}`);
    return true;
  });
}
