import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "../../server/db/client.ts";

/** The PostgreSQL server the benches use (the CI's local cluster by default). */
export const PG_URL =
  process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

/**
 * A fresh PostgreSQL database named `{prefix}_{random}` for one bench, dropped by `drop()`,
 * or null when no server answers (the bench then prints only its PGlite column).
 */
export async function openPostgresBench(
  prefix: string,
): Promise<(Database & { drop(): Promise<void> }) | null> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    drop: async () => {
      await database.close();
      const again = new pg.Client({ connectionString: PG_URL });
      await again.connect();
      await again.query(`drop database if exists ${name}`);
      await again.end();
    },
  };
}
