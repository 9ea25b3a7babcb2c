import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { viewCounter, type ReportViewCounter } from "../../server/data/reportLinks.ts";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { sql } from "drizzle-orm";
import { openDatabase, rows, type Database, type Db } from "../../server/db/client.ts";
import { emptyDatabase, seedDemo } from "../../server/seed/index.ts";

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL (CI runs the suite on both).
 */
export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env["TEST_DATABASE_URL"];
  if (!url) {
    const template = inject("pgliteTemplate");
    const db = await openDatabase({ template: template ? new Blob([await readFile(template)]) : undefined });
    return { ...db, drop: () => db.close() };
  }
  const { default: pg } = await import("pg");
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString() });
  return {
    ...db,
    drop: async () => {
      await db.close();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name}`);
      await again.end();
    },
  };
}

export const TEST_NOW = new Date("2026-11-22T12:00:00Z");

/** Test config: no demo seeding or simulator; the app is called without a port. */
export function testConfig(env: Record<string, string> = {}) {
  return parseConfig({ DEMO: "0", SIMULATOR: "0", ...env });
}

/**
 * The app with its answer cache on for a long time (10 s) at the test clock: only a write on
 * this instance, or a fresh answer asked for, can end a cached or reused answer.
 */
export const cachingApp = (db: Database["db"]) =>
  buildApp({ db, config: testConfig({ ANSWER_CACHE_MS: "10000" }), now: () => TEST_NOW });

/** Where a file's database keeps the demo rows as first seeded, for the next tests to copy back. */
const SEED_COPY = "seed_copy";

/** The seeded rows and sequence positions, kept once per database in the SEED_COPY schema. */
interface SeedCopy {
  tables: string[];
  sequences: { name: string; value: number }[];
}

async function keepSeed(db: Db): Promise<SeedCopy> {
  // Plain tables only: a partitioned table's rows are its partitions' rows.
  const tables = (
    await rows<{ name: string }>(
      db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    )
  ).map((t) => t.name);
  const sequences = (
    await rows<{ name: string; value: string | null }>(
      db,
      sql`select sequencename as name, last_value as value from pg_sequences where schemaname = 'public'`,
    )
  ).flatMap((q) => (q.value === null ? [] : [{ name: q.name, value: Number(q.value) }]));
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
async function restoreSeed(db: Db, copy: SeedCopy) {
  const tables = (
    await rows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public'`)
  ).map((t) => `public."${t.tablename}"`);
  await db.transaction(async (tx) => {
    // Needs a superuser on PostgreSQL (PGlite is one; README says so for TEST_DATABASE_URL).
    await tx.execute(sql.raw("set local session_replication_role = replica"));
    await tx.execute(sql.raw(`truncate ${tables.join(", ")} restart identity cascade`));
    for (const t of copy.tables)
      await tx.execute(sql.raw(`insert into public."${t}" select * from ${SEED_COPY}."${t}"`));
    for (const q of copy.sequences)
      await tx.execute(sql.raw(`select setval('public."${q.name}"', ${q.value})`));
  });
}

/**
 * One database per file, emptied before each test; `seeded` re-seeds the demo data set
 * (without a year of samples) so every test starts from the same rows: seeded once per
 * file, then copied back.
 */
export function useTestApp(opts: { seeded?: boolean } = {}) {
  const ctx = {} as { database: Database & { drop(): Promise<void> }; app: ReturnType<typeof buildApp> };
  let views: ReportViewCounter;
  let seed: SeedCopy | undefined;
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    views = viewCounter(ctx.database.db);
    ctx.app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, views });
  });
  beforeEach(async () => {
    // Views a test counted are written before the rows go, never into the next test's rows.
    await views.flush();
    const { db } = ctx.database;
    if (seed) return restoreSeed(db, seed);
    await emptyDatabase(db);
    if (!opts.seeded) return;
    await seedDemo(db, { now: TEST_NOW, sampleDays: 0 });
    seed = await keepSeed(db);
  });
  afterAll(async () => {
    await ctx.database?.drop();
  });
  return ctx;
}
