// What `npm run backup` and `npm run restore` do, for both databases (docs/operations.md):
// PGlite's data directory as one gzipped tarball (dumpDataDir / loadDataDir), PostgreSQL with
// pg_dump's custom format and pg_restore. Each prints the row count and checksum of every
// table, so a restore is checked against the backup's figures.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, rows, type Db } from "../server/db/client.ts";

const run = promisify(execFile);

/** Where the data lives: DATABASE_URL, or PGlite's directory. */
export interface Target {
  url?: string | undefined;
  dataDir: string;
}

/** One table's figures: `schema.table`, its rows, and the md5 of its rows in primary key order. */
export interface TableSum {
  table: string;
  rows: number;
  md5: string;
}

export const NOT_EMPTY = (dir: string) =>
  `${dir} already holds a database. Restore into an empty DATA_DIR, or pass --force to move it aside first.`;

/** Writes the backup file; the figures are read first, from the same data. */
export async function backup(target: Target, file: string): Promise<TableSum[]> {
  const sums = await tableSumsOf(target);
  mkdirSync(dirname(file), { recursive: true });
  if (target.url) await run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, target.url]);
  else writeFileSync(file, await pgliteTarball(target.dataDir));
  return sums;
}

/**
 * Restores a backup file. PostgreSQL: into the database of DATABASE_URL, its objects dropped
 * and created again in one transaction. PGlite: into an empty DATA_DIR; `force` first renames
 * the existing one to `<dir>.before-restore-<time>` (never deleted).
 */
export async function restore(target: Target, file: string, force = false): Promise<TableSum[]> {
  if (target.url) await pgRestore(target.url, file);
  else await pgliteRestore(target.dataDir, file, force);
  return tableSumsOf(target);
}

/**
 * pg_restore's --clean cannot drop a partition's primary key (samples_YYYY_MM_pkey is inherited
 * from samples'), so the partitioned tables (samples, sample_rollups) are dropped with their
 * partitions first, in the same transaction as the restore: pg_restore writes the script, psql
 * runs it as one transaction.
 */
async function pgRestore(url: string, file: string) {
  const script = `(echo 'drop table if exists public.samples cascade; drop table if exists public.sample_rollups cascade;'
    pg_restore --clean --if-exists --no-owner --file=- "$1") |
    psql -X -q -v ON_ERROR_STOP=1 --single-transaction --file=- --dbname="$2"`;
  await run("bash", ["-o", "pipefail", "-c", script, "bash", file, url]);
}

async function pgliteTarball(dataDir: string): Promise<Buffer> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dataDir);
  try {
    // dumpDataDir before the database is up waits forever (PGlite 0.5).
    await db.waitReady;
    const tarball = await db.dumpDataDir("gzip");
    return Buffer.from(await tarball.arrayBuffer());
  } finally {
    await db.close();
  }
}

async function pgliteRestore(dataDir: string, file: string, force: boolean) {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    if (!force) throw new Error(NOT_EMPTY(dataDir));
    renameSync(dataDir, `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  }
  mkdirSync(dataDir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dataDir, { loadDataDir: new Blob([readFileSync(file)]) });
  await db.waitReady;
  await db.close();
}

/** Every table's figures in the database of `target` (opened, and migrated if it needs it). */
export async function tableSumsOf(target: Target): Promise<TableSum[]> {
  const database = await openDatabase(target.url ? { url: target.url } : { dataDir: target.dataDir });
  try {
    return await tableSums(database.db);
  } finally {
    await database.close();
  }
}

/** The app's tables (public) and the migrations' record (drizzle), each counted and hashed. */
export async function tableSums(db: Db): Promise<TableSum[]> {
  const tables = await rows<{ schema: string; name: string }>(
    db,
    sql`select schemaname as schema, tablename as name from pg_tables
        where schemaname in ('public', 'drizzle') order by schemaname, tablename`,
  );
  const sums: TableSum[] = [];
  for (const { schema, name } of tables) {
    const table = `"${schema}"."${name}"`;
    const order = (await primaryKey(db, table)).map((c) => `t."${c}"`).join(", ") || "t::text";
    const [row] = await rows<{ n: number; md5: string }>(
      db,
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\\n' order by ${order}), '')) as md5 from ${table} t`,
      ),
    );
    sums.push({ table: `${schema}.${name}`, rows: row!.n, md5: row!.md5 });
  }
  return sums;
}

/** A table's primary key columns in key order (none: the rows are ordered by their text). */
async function primaryKey(db: Db, table: string): Promise<string[]> {
  const columns = await rows<{ name: string }>(
    db,
    sql`select a.attname as name from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = ${table}::regclass and i.indisprimary
        order by array_position(i.indkey::int2[], a.attnum)`,
  );
  return columns.map((c) => c.name);
}

/** The figures as the scripts print them: one table a line, then the totals. */
export function sumsText(sums: TableSum[]): string {
  const width = Math.max(...sums.map((s) => s.table.length), 5);
  const lines = sums.map((s) => `  ${s.table.padEnd(width)}  ${String(s.rows).padStart(9)}  ${s.md5}`);
  const total = sums.reduce((n, s) => n + s.rows, 0);
  return [...lines, `  ${"total".padEnd(width)}  ${String(total).padStart(9)}  (${sums.length} tables)`].join(
    "\n",
  );
}
