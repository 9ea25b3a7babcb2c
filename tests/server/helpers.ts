import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, inject, onTestFinished, vi } from "vitest";
import { inArray, sql } from "drizzle-orm";
import { viewCounter, type ReportViewCounter } from "../../server/data/reportLinks.ts";
import { buildApp } from "../../server/app.ts";
import type { AuditAnchors } from "../../server/services/auditAnchors.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase, rows, type Database, type Db } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { emptyDatabase } from "../../server/seed/index.ts";
import { hashPassword } from "../../server/services/passwords.ts";
import { placeSequences, restoreSeed, seedForTests, TEST_NOW, type SeedCopy } from "./seedTemplate.ts";

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL (CI runs the suite on both).
 */
export async function openTestDatabase(
  opts: { seeded?: boolean } = {},
): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env["TEST_DATABASE_URL"];
  if (!url) {
    const template = opts.seeded ? inject("pgliteSeeded").file : inject("pgliteTemplate");
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

export { TEST_NOW };

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

/**
 * PGlite databases that test files gave back, by the dump they were loaded from: the files of
 * a worker share its modules (vitest.config.ts), so the next file (or the next describe)
 * takes one over instead of loading a dump again (about a second of a core each). Its rows
 * are reset before each test anyway; one whose schema or session settings a file changed is
 * closed, never given back.
 */
const spare = new Map<string, Database & { drop(): Promise<void> }>();

/** What a file could leave behind that a reset of the rows does not undo. */
async function catalogOf(db: Db): Promise<string> {
  const [row] = await rows<{ print: string }>(
    db,
    sql`select concat_ws('/',
      (select count(*) from pg_class), (select max(oid::int8) from pg_class),
      (select count(*) from pg_attribute), (select count(*) from pg_proc),
      (select count(*) from pg_trigger), (select count(*) from pg_namespace),
      (select string_agg(name || '=' || setting, ',' order by name) from pg_settings where source = 'session')
    ) as print`,
  );
  return row!.print;
}

/**
 * One database per file, emptied before each test; `seeded` re-seeds the demo data set
 * (without a year of samples) so every test starts from the same rows: seeded once per
 * file, then copied back.
 */
export function useTestApp(opts: { seeded?: boolean; anchors?: AuditAnchors } = {}) {
  const ctx = {} as { database: Database & { drop(): Promise<void> }; app: ReturnType<typeof buildApp> };
  let views: ReportViewCounter;
  let seed: SeedCopy | undefined;
  /** The database is the seed as made, untouched: the first test needs no copy back. */
  let untouched = false;
  /** The dump a PGlite database was loaded from, and its catalog then ("" on PostgreSQL). */
  let dump = "";
  let catalog = "";
  /** Nothing left to write, and the catalog as it was loaded (a test may have closed it, too). */
  const unchanged = async () => {
    try {
      await views.flush();
      return (await catalogOf(ctx.database.db)) === catalog;
    } catch {
      return false;
    }
  };
  beforeAll(async () => {
    const seeded = opts.seeded && !process.env["TEST_DATABASE_URL"] ? inject("pgliteSeeded") : null;
    dump = process.env["TEST_DATABASE_URL"] ? "" : (seeded?.file ?? inject("pgliteTemplate"));
    const reused = spare.get(dump);
    spare.delete(dump);
    ctx.database = reused ?? (await openTestDatabase({ seeded: seeded !== null }));
    if (seeded) {
      // A database another file used is copied back before the first test like any other.
      [seed, untouched] = [seeded.copy, !reused];
      if (!reused) await placeSequences(ctx.database.db, seed);
    }
    if (dump) catalog = await catalogOf(ctx.database.db);
    views = viewCounter(ctx.database.db);
    ctx.app = buildApp({
      db: ctx.database.db,
      config: testConfig(),
      now: () => TEST_NOW,
      views,
      ...(opts.anchors ? { anchors: opts.anchors } : {}),
    });
  });
  beforeEach(async () => {
    // Views a test counted are written before the rows go, never into the next test's rows.
    await views.flush();
    const { db } = ctx.database;
    if (untouched) return void (untouched = false);
    if (seed) return restoreSeed(db, seed);
    await emptyDatabase(db);
    if (!opts.seeded) return;
    seed = await seedForTests(db);
  });
  afterAll(async () => {
    if (!ctx.database) return;
    if (dump !== "" && !spare.has(dump) && (await unchanged())) spare.set(dump, ctx.database);
    else await ctx.database.drop();
  });
  return ctx;
}

/**
 * For the rest of this test, passwords hash at the product's cost (N=2^15; the tests hash at
 * 2^10, vitest.config.ts), and these people's passwords, "demo-password-1", are stored at it:
 * for tests about how long checks take.
 */
export async function atProductCost(db: Database["db"], emails: string[]) {
  vi.stubEnv("VITEST_SCRYPT_N", "32768");
  onTestFinished(() => void vi.unstubAllEnvs());
  const passwordHash = await hashPassword("demo-password-1");
  await db.update(users).set({ passwordHash }).where(inArray(users.email, emails));
}
