import { randomBytes } from "node:crypto";
import { PG_URL } from "../bench/postgres.ts";

/**
 * A fresh, empty PostgreSQL database `{prefix}_{random}` for the load target to open (and
 * migrate) itself, dropped by `drop()`; null when no server answers.
 */
export async function createDatabase(
  prefix: string,
  server = PG_URL,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  const { default: pg } = await import("pg");
  const admin = () => new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const client = admin();
  try {
    await client.connect();
  } catch {
    return null;
  }
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = admin();
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
