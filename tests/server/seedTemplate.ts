import { sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { forgetPushDevices } from "../../server/data/ingestLookup.ts";

// The seeded server tests' starting point, without Vitest's hooks so that globalSetup can
// make it once for every file (tests/server/globalSetup.ts).

export const TEST_NOW = new Date("2026-11-22T12:00:00Z");

/** Where a file's database keeps the demo rows as first seeded, for the next tests to copy back. */
const SEED_COPY = "seed_copy";

/** The seeded rows and sequence positions, kept once per database in the SEED_COPY schema. */
export interface SeedCopy {
  tables: string[];
  /** Where each sequence was; null: never used, so its next value is `start`. */
  sequences: { name: string; value: number | null; start: number }[];
}

export async function keepSeed(db: Db): Promise<SeedCopy> {
  // Plain tables only: a partitioned table's rows are its partitions' rows.
  const tables = (
    await rows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    )
  ).map((t) => t.name);
  // Never-used ones too (orders_id_seq has no column to own it, so truncate's restart
  // identity leaves it where the last test's payment moved it).
  const sequences = (
    await rows<{ name: string; value: string | null; start: string }>(
      db,
      sql`select sequencename as name, last_value as value, start_value as start
          from pg_sequences where schemaname = 'public'`,
    )
  ).map((q) => ({ name: q.name, value: q.value === null ? null : Number(q.value), start: Number(q.start) }));
  await db.execute(sql.raw(`drop schema if exists ${SEED_COPY} cascade`));
  await db.execute(sql.raw(`create schema ${SEED_COPY}`));
  for (const t of tables)
    await db.execute(sql.raw(`create table ${SEED_COPY}."${t}" as select * from public."${t}"`));
  return { tables, sequences };
}

/**
 * The database as seedDemo left it, in one transaction: every table emptied, the kept rows
 * copied back (foreign keys unchecked meanwhile: the rows were consistent when kept) and
 * each sequence where seeding left it. A third of seeding's time, which ran before every test.
 */
export async function restoreSeed(db: Db, copy: SeedCopy) {
  const tables = (
    await rows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public'`)
  ).map((t) => `public."${t.tablename}"`);
  await inTransaction(db, async (tx) => {
    // Needs a superuser on PostgreSQL (PGlite is one; README says so for TEST_DATABASE_URL).
    await tx.execute(sql.raw("set local session_replication_role = replica"));
    await tx.execute(sql.raw(`truncate ${tables.join(", ")} restart identity cascade`));
    for (const t of copy.tables)
      await tx.execute(sql.raw(`insert into public."${t}" select * from ${SEED_COPY}."${t}"`));
    await placeSequences(tx, copy);
  });
  // The ids and counts of the devices' shapes begin again: a remembered device would match.
  forgetPushDevices(db);
}

/**
 * Each sequence where seeding left it. Also for a database loaded from the seeded dump: a
 * data dir keeps a sequence where it logged it, up to 32 values ahead of the last one used.
 */
export async function placeSequences(db: Db, copy: SeedCopy) {
  if (copy.sequences.length === 0) return;
  const calls = copy.sequences.map((q) =>
    q.value === null
      ? `setval('public."${q.name}"', ${q.start}, false)`
      : `setval('public."${q.name}"', ${q.value})`,
  );
  await db.execute(sql.raw(`select ${calls.join(", ")}`));
}

/** The demo data set as the seeded tests start from it, with its copy kept beside it. */
export async function seedForTests(db: Db): Promise<SeedCopy> {
  await seedDemo(db, { now: TEST_NOW, sampleDays: 0 });
  return keepSeed(db);
}
