import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/index.ts";
import {
  backup,
  NOT_EMPTY,
  restore,
  tableSumsOf,
  type Target,
  type TableSum,
} from "../../scripts/dbBackup.ts";
import { TEST_NOW } from "./helpers.ts";

/*
 * `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts): a seeded
 * database (with two days of samples) comes back with the same row count and the same md5 of
 * its rows, in primary key order, in every table.
 */

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "portal-backup-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Opens the target, seeds the demo with two days of samples, closes it. */
async function seeded(target: Target) {
  const database = await openDatabase(target.url ? { url: target.url } : { dataDir: target.dataDir });
  await seedDemo(database.db, { now: TEST_NOW, sampleDays: 2 });
  await database.close();
}

/** Runs a script as `npm run` does, with this database in its environment. */
async function script(name: "backup" | "restore", args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  const { stdout } = await run(process.execPath, [`scripts/${name}.ts`, ...args], {
    env: { ...rest, DEMO: "0", ...env },
  });
  return stdout;
}

const byTable = (sums: TableSum[]) => Object.fromEntries(sums.map((s) => [s.table, s]));

describe("backup and restore on PGlite", () => {
  const source = { dataDir: join(work, "source") };
  const file = join(work, "portal.tar.gz");
  // Nothing writes to the source after it is seeded: its sums are read once (about a second
  // of PGlite each time), not once per test.
  let sums: Promise<TableSum[]> | undefined;
  const sourceSums = () => (sums ??= tableSumsOf(source));

  it("restores the data directory with every table's rows and checksum", { timeout: 120_000 }, async () => {
    await seeded(source);
    const printed = await script("backup", ["--out", file], { DATA_DIR: source.dataDir });
    expect(printed).toMatch(/public\.samples\s+\d+\s+[0-9a-f]{32}/);
    const target = { dataDir: join(work, "restored") };
    const restored = await script("restore", [file], { DATA_DIR: target.dataDir });
    expect(restored).toContain("public.samples");
    const before = await sourceSums();
    expect(byTable(before)["public.samples"]!.rows).toBeGreaterThan(100);
    expect(byTable(before)["drizzle.__drizzle_migrations"]!.rows).toBeGreaterThan(0);
    expect(await tableSumsOf(target)).toEqual(before);
  });

  it("tells a changed row by its table's checksum", { timeout: 60_000 }, async () => {
    const target = { dataDir: join(work, "changed") };
    await restore(target, file);
    const database = await openDatabase({ dataDir: target.dataDir });
    await database.db.execute(
      sql`update devices set name = name || ' (moved)' where id = (select min(id) from devices)`,
    );
    await database.close();
    const [was, is] = [byTable(await sourceSums()), byTable(await tableSumsOf(target))];
    const differ = Object.keys(was).filter((t) => was[t]!.md5 !== is[t]?.md5 || was[t]!.rows !== is[t]?.rows);
    expect(differ).toEqual(["public.devices"]);
  });

  it(
    "refuses to restore over a database, and with --force keeps the old one aside",
    { timeout: 60_000 },
    async () => {
      const target = { dataDir: join(work, "changed") };
      await expect(restore(target, file)).rejects.toThrow(NOT_EMPTY(target.dataDir));
      expect(await restore(target, file, true)).toEqual(await sourceSums());
      expect(readdirSync(work).filter((name) => name.startsWith("changed.before-restore-"))).toHaveLength(1);
    },
  );
});

const url = process.env["TEST_DATABASE_URL"];

describe.skipIf(!url)("backup and restore on PostgreSQL", () => {
  const names = ["source", "restored"].map((n) => `portal_backup_${n}_${process.pid}`);
  const urlOf = (name: string) => Object.assign(new URL(url!), { pathname: `/${name}` }).toString();
  const admin = async (statement: string) => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  afterAll(async () => {
    for (const name of names) await admin(`drop database if exists ${name}`);
  });

  it(
    "restores with pg_restore every table's rows and checksum, over a changed copy too",
    { timeout: 120_000 },
    async () => {
      for (const name of names) await admin(`create database ${name}`);
      const source = { url: urlOf(names[0]!), dataDir: "" };
      const target = { url: urlOf(names[1]!), dataDir: "" };
      await seeded(source);
      const file = join(work, "portal.dump");
      const sums = await backup(source, file);
      expect(existsSync(file)).toBe(true);
      expect(await restore(target, file)).toEqual(sums);
      const database = await openDatabase({ url: target.url });
      await database.db.execute(sql`delete from samples where ctid in (select ctid from samples limit 10)`);
      await database.close();
      expect(await tableSumsOf(target)).not.toEqual(sums);
      expect(await restore(target, file)).toEqual(sums);
    },
  );
});
