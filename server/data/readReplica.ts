import { driverNeutral, postgresPool, type Db } from "../db/client.ts";
import * as schema from "../db/schema/index.ts";
import { primaryReads, replicaRouter, type ReadRouter } from "./readRouter.ts";
import { primaryLsn, replicaReading } from "./replicaLag.ts";

/**
 * A replica that does not answer is given up on within this: a read then goes to the primary
 * (the request pays this once; the monitor marks the replica away for the next ones).
 */
export const REPLICA_CONNECT_TIMEOUT_MS = 1000;

/**
 * The read router of DATABASE_READ_URL: a pool of its own on the replica (never migrated:
 * a standby is read-only and replays the primary's migrations), and its lag monitor, not yet
 * started. The monitor probes over one connection of its own to each server, so that a busy
 * pool (requests queued for a connection) cannot make its probes late and the replica look
 * away. Without a URL, every read runs on the primary.
 */
export async function openReadRouter(
  primary: Db,
  opts: {
    url: string | undefined;
    primaryUrl: string | undefined;
    maxLagSeconds: number;
    poolMax?: number | undefined;
  },
): Promise<ReadRouter> {
  if (!opts.url || !opts.primaryUrl) return primaryReads(primary);
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const open = async (url: string, max: number | undefined) => {
    const pool = await postgresPool(url, { max, connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS });
    return { pool, db: driverNeutral(drizzle({ client: pool, schema })) };
  };
  const replica = await open(opts.url, opts.poolMax);
  const probeReplica = await open(opts.url, 1);
  const probePrimary = await open(opts.primaryUrl, 1);
  return replicaRouter({
    primary,
    replica: replica.db,
    maxLagSeconds: opts.maxLagSeconds,
    reading: () => replicaReading(probeReplica.db),
    mark: () => primaryLsn(probePrimary.db),
    closeReplica: async () => {
      await Promise.all([replica.pool.end(), probeReplica.pool.end(), probePrimary.pool.end()]);
    },
  });
}
