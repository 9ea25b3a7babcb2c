import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema/index.ts";
import { writeWatch } from "./requestWrites.ts";
import {
  ownTransaction,
  settingsText,
  statementWithCommit,
  withCommit,
  type TxSettings,
} from "./ownTransaction.ts";

export { statementWithCommit, withCommit, type TxSettings };

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Drizzle types a database and a transaction by their driver (PGlite's, node-postgres's); the
 * portal's code by the driver-neutral Db, which every query it writes runs the same on. This is
 * the one place that says so.
 */
export const driverNeutral = (db: unknown): Db => db as Db;

/**
 * Runs `work` in one transaction (a savepoint inside a caller's): the one typed door to
 * transactions. On PostgreSQL the transaction is one of our own (ownTransaction.ts), whose
 * COMMIT can carry statements queued with `withCommit`.
 */
export function inTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  settings: TxSettings = {},
): Promise<T> {
  return (
    ownTransaction(db, work, settings) ??
    db.transaction(async (tx) => {
      for (const text of settingsText(settings)) await tx.execute(text);
      return work(driverNeutral(tx));
    })
  );
}
export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any fixed number: instances starting together take turns migrating. */
const MIGRATION_LOCK = 727_001;

/**
 * Opens PostgreSQL when a URL is given, else PGlite in dataDir (or in memory), and migrates.
 * `template` is a PGlite data-dir dump to start an in-memory database from: loading one is
 * several times faster than PGlite's initdb, which the test suite would otherwise pay per file.
 */
export async function openDatabase(opts: {
  url?: string | undefined;
  dataDir?: string | undefined;
  template?: Blob | undefined;
  /** PostgreSQL connections this process may hold (DATABASE_POOL_MAX). */
  poolMax?: number | undefined;
}): Promise<Database> {
  const database = opts.url
    ? await openPostgres(opts.url, opts.poolMax)
    : await openPglite(opts.dataDir, opts.template);
  return database;
}

/** How long a request waits for a new connection before it fails (and answers 503). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * The PostgreSQL pool. While the database is away a connect fails within the timeout instead
 * of hanging; an idle connection the database drops (a restart) is logged, not fatal: an
 * 'error' event nobody listens to would end the process.
 */
export async function postgresPool(
  url: string,
  opts: { max?: number | undefined; connectTimeoutMs?: number } = {},
) {
  const { Pool } = (await import("pg")).default;
  const pool = new Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    // Literals sent as text (literal.ts) are quoted for UTF-8: a role or database set to
    // another client encoding must not change how a quote is read. Awaited before the pool
    // hands the connection out, so no query ever runs beside it.
    // No JIT: the portal's queries are short, and a chart read whose estimate passed
    // jit_above_cost spent 50 ms compiling to run in 4 (docs/decisions.md, "Rollups folded...").
    onConnect: async (client: { query(text: string): Promise<unknown> }) => {
      await client.query("set client_encoding to 'UTF8'; set jit = off");
    },
  });
  // A client checked out (inside a transaction, between two queries) has no pool listener: a
  // connection the database cuts then emits 'error' on it, which would end the process. Its
  // next query fails instead ("not queryable"), and that request answers 503.
  pool.on("connect", (client) => {
    client.on("error", (err) =>
      console.warn(JSON.stringify({ level: "warn", what: "database connection lost", error: err.message })),
    );
  });
  pool.on("error", (err) =>
    console.warn(
      JSON.stringify({ level: "warn", what: "idle database connection lost", error: err.message }),
    ),
  );
  return pool;
}

async function openPostgres(url: string, max: number | undefined): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = await postgresPool(url, { max });
  // The logger tells each request whether it wrote (requestWrites.ts).
  const db = driverNeutral(drizzle({ client: pool, schema, logger: writeWatch }));
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return { db, kind: "postgres", close: () => pool.end() };
}

/**
 * PGlite's postgresql.conf keeps up to 1 GB of used WAL segments for reuse: the demo's year of
 * history left 480 MB of them beside 240 MB of data. A checkpoint every 64 MB of WAL keeps
 * the folder near the size of its data (PGlite runs with fsync off; nothing else reads the WAL).
 */
export const PGLITE_WAL = ["-c", "max_wal_size=64MB", "-c", "min_wal_size=32MB"];

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { DRIZZLE_PARSERS, presetParsersClient } = await import("./pgliteParsers.ts");
  const pglite = dataDir
    ? new PGlite(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_WAL] })
    : new PGlite(template ? { loadDataDir: template } : {});
  await pglite.waitReady;
  // Once it is up: as it starts, PGlite makes a parser for every array type, drizzle's five
  // array ones among them, over any it was given.
  Object.assign(pglite.parsers, DRIZZLE_PARSERS);
  const client = presetParsersClient(pglite);
  await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS });
  const db = drizzle({ client, schema, logger: writeWatch });
  return { db: driverNeutral(db), kind: "pglite", close: () => pglite.close() };
}

/** Rows of a raw SQL query, the same shape on both drivers. */
export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
