import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { openDatabase, type Database } from "../../server/db/client.ts";

/** The PostgreSQL server the proof uses (the CI's local cluster by default). */
export const PG_URL =
  process.env["PROOF_DATABASE_URL"] ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

/** One database a proof runs on: the server's environment for it, direct access, clean-up. */
export interface Target {
  name: "PGlite" | "PostgreSQL";
  /** What the server process needs to find the database (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** Opens it directly (PGlite: only while no server has it open). */
  open(): Promise<Database>;
  /** Removes the data directory or drops the database. */
  remove(): Promise<void>;
}

/** A fresh PGlite data directory under /tmp. */
export function pgliteTarget(work: string): Target {
  const dir = `${work}/pglite-data`;
  mkdirSync(dir, { recursive: true });
  return {
    name: "PGlite",
    env: { DATA_DIR: dir },
    open: () => openDatabase({ dataDir: dir }),
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh PostgreSQL database `proof_k_{random}`, or null when no server answers. */
export async function postgresTarget(): Promise<Target | null> {
  const { default: pg } = await import("pg");
  const admin = async <T>(run: (c: InstanceType<typeof pg.Client>) => Promise<T>) => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  const name = `proof_k_${randomBytes(4).toString("hex")}`;
  try {
    await admin((c) => c.query(`create database ${name}`));
  } catch {
    return null;
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    name: "PostgreSQL",
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString() }),
    remove: async () => {
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
