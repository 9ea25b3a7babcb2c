import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase } from "../../server/db/client.ts";
import { proofCluster, type ProofCluster } from "./cluster.ts";
import { Instance } from "./instance.ts";
import { percentile, type Sample } from "./probe.ts";
import { checkPushes, pushDevices, type PushCounts } from "./pushes.ts";
import { tally, type Tally } from "./tally.ts";
import { drive, readPaths } from "./traffic.ts";

/** The pool's connect timeout (server/db/client.ts) and a second: no answer may take longer. */
export const OUTAGE_P99_LIMIT_MS = 6000;
/** After PostgreSQL answers again, requests must succeed within this. */
export const RECOVERY_LIMIT_MS = 10_000;
const CLUSTER_PORT = 5433;
const READERS = 4;
const DAY = 86_400;

export interface OutageResult {
  outageSeconds: number;
  before: Tally;
  during: Tally;
  /** Answers during the outage by status ('503', '200', ...): the 200s are what needs no database. */
  duringStatuses: Record<string, number>;
  afterTotal: number;
  duringP99Ms: number;
  duringMaxMs: number;
  /** PostgreSQL accepting connections again → the first 2xx push and public order that followed (ms). */
  recoveryPushMs: number | null;
  recoveryReadMs: number | null;
  /** Requests sent 10 s or more after PostgreSQL was back that did not succeed. */
  lateFailures: number;
  stayedUp: boolean;
  pushes: PushCounts;
}

/** A fresh database on the proof's cluster; dropped by the returned function. */
async function freshDatabase(cluster: ProofCluster) {
  const { default: pg } = await import("pg");
  const name = `proof_o_${randomBytes(4).toString("hex")}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * PostgreSQL away under load: devices push and readers fetch public pages against a server on
 * the proof's own cluster; the cluster is stopped (`-m fast`) for `seconds`, then started
 * again (always, also when the run fails). Null when no cluster can be had.
 */
export async function outageRun(
  seconds: number,
  port: number,
  logFile: string,
): Promise<OutageResult | null> {
  const cluster = await proofCluster(CLUSTER_PORT);
  if (!cluster) return null;
  const log = createWriteStream(logFile, { flags: "a" });
  let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  let instance: Instance | null = null;
  try {
    database = await freshDatabase(cluster);
    const env = { DATABASE_URL: database.url };
    instance = new Instance(port, env, log);
    await instance.ready();
    const setup = await openDatabase({ url: database.url });
    const devices = await pushDevices(setup.db);
    const reads = await readPaths(setup.db);
    await setup.close();

    let running = true;
    const start = Math.floor(Date.now() / 1000) - 6 * DAY;
    const traffic = drive(instance.url, devices, start, reads.paths, READERS, () => running);
    await sleep(5000);
    const stopped = Date.now();
    cluster.stop();
    await sleep(seconds * 1000);
    const restarting = Date.now();
    await cluster.start();
    const back = Date.now();
    await sleep(RECOVERY_LIMIT_MS + 5000);
    running = false;
    const t = await traffic;
    const stayedUp = instance.exit === null;
    await instance.terminate();

    const during = t.samples.filter((s) => s.began >= stopped && s.began < restarting);
    const after = t.samples.filter((s) => s.began >= back);
    const ok = (s: Sample) => s.failure === null && s.status >= 200 && s.status < 300;
    const firstOk = (what: string) => {
      const s = after.filter((x) => x.what === what && ok(x)).sort((a, b) => a.ended - b.ended)[0];
      return s ? s.ended - back : null;
    };
    const duringStatuses: Record<string, number> = {};
    for (const s of during) {
      const key = s.failure ?? String(s.status);
      duringStatuses[key] = (duringStatuses[key] ?? 0) + 1;
    }
    const check = await openDatabase({ url: database.url });
    try {
      return {
        outageSeconds: Math.round((restarting - stopped) / 1000),
        before: tally(t.samples.filter((s) => s.began < stopped)),
        during: tally(during),
        duringStatuses,
        afterTotal: after.length,
        duringP99Ms: percentile(during, 99),
        duringMaxMs: percentile(during, 100),
        recoveryPushMs: firstOk("push"),
        recoveryReadMs: firstOk("order"),
        lateFailures: after.filter((s) => s.began >= back + RECOVERY_LIMIT_MS && !ok(s)).length,
        stayedUp,
        pushes: await checkPushes(check.db, devices, start, t.pushes),
      };
    } finally {
      await check.close();
    }
  } finally {
    // PostgreSQL comes back whatever happened; then the database and (if made here) the cluster go.
    if (cluster.down) await cluster.start().catch((e) => console.error(`Restarting PostgreSQL: ${e}`));
    await instance?.kill();
    await database?.drop().catch(() => {});
    await cluster.release().catch((e) => console.error(`Releasing the proof cluster: ${e}`));
    log.end();
  }
}

/** What must hold for the outage run to pass. */
export function outageFailures(r: OutageResult): string[] {
  const d = r.during;
  const p = r.pushes;
  const must: [string, boolean][] = [
    [
      // A request still under way when PostgreSQL stops may get the outage's 503.
      `${r.before.total - r.before.answered - r.before.unavailable} requests failed before the outage`,
      r.before.answered + r.before.unavailable < r.before.total,
    ],
    [`${d.serverErrors} 5xx answers other than 503 with Retry-After during the outage`, d.serverErrors > 0],
    [
      `${d.refused + d.dropped + d.truncated + d.timeouts + d.other} requests without a whole answer during the outage`,
      d.refused + d.dropped + d.truncated + d.timeouts + d.other > 0,
    ],
    [
      `p99 ${r.duringP99Ms} ms during the outage (limit ${OUTAGE_P99_LIMIT_MS})`,
      r.duringP99Ms >= OUTAGE_P99_LIMIT_MS,
    ],
    ["the server process exited", !r.stayedUp],
    [
      `no 2xx push and public order within ${RECOVERY_LIMIT_MS} ms of PostgreSQL's return (${r.recoveryPushMs}, ${r.recoveryReadMs})`,
      r.recoveryPushMs === null ||
        r.recoveryReadMs === null ||
        Math.max(r.recoveryPushMs, r.recoveryReadMs) > RECOVERY_LIMIT_MS,
    ],
    [`${r.lateFailures} requests failed 10 s or more after PostgreSQL was back`, r.lateFailures > 0],
    [`${p.lost} pushes answered 2xx are missing`, p.lost > 0],
    [`${p.halfStored} pushes half-stored`, p.halfStored > 0],
  ];
  return must.filter(([, failed]) => failed).map(([what]) => `PostgreSQL outage: ${what}`);
}
