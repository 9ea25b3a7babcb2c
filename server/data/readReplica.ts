import { driverNeutral, postgresPool, type Db } from "../db/client.ts";
import * as schema from "../db/schema/index.ts";
import { primaryReads, replicaRouter, type ReadRouter } from "./readRouter.ts";

/**
 * A replica that does not answer is given up on within this: a read then goes to the primary
 * (the request pays this once; the monitor marks the replica away for the next ones).
 */
export const REPLICA_CONNECT_TIMEOUT_MS = 1000;

/**
 * The read router of DATABASE_READ_URL: a pool of its own on the replica (never migrated:
 * a standby is read-only and replays the primary's migrations), and its lag monitor, not yet
 * started. Without a URL, every read runs on the primary.
 */
export async function openReadRouter(
  primary: Db,
  opts: { url: string | undefined; maxLagSeconds: number; poolMax?: number | undefined },
): Promise<ReadRouter> {
  if (!opts.url) return primaryReads(primary);
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = await postgresPool(opts.url, {
    max: opts.poolMax,
    connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
  });
  return replicaRouter({
    primary,
    replica: driverNeutral(drizzle({ client: pool, schema })),
    maxLagSeconds: opts.maxLagSeconds,
    closeReplica: () => pool.end(),
  });
}
