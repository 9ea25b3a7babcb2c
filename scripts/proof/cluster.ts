import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

const VERSION = "15";
const NAME = "proof";

/** A PostgreSQL cluster of the outage proof's own, so stopping it stops nobody else's database. */
export interface ProofCluster {
  port: number;
  /** The superuser's URL on the `postgres` database. */
  url: string;
  down: boolean;
  /** `pg_ctlcluster stop -m fast`: connections are cut at once, as when the database crashes. */
  stop(): void;
  /** Starts it and waits until it accepts connections. */
  start(): Promise<void>;
  /** Drops the cluster if this run created it, else leaves it as it was found. */
  release(): Promise<void>;
}

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();

/** The cluster's status word from pg_lsclusters ('online', 'down'), or null when it does not exist. */
function status(): string | null {
  const line = run("pg_lsclusters", ["-h"])
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((cols) => cols[0] === VERSION && cols[1] === NAME);
  return line?.[3] ?? null;
}

async function ready(port: number) {
  for (let i = 0; i < 60; i++) {
    try {
      run("pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(port)]);
      return;
    } catch {
      await sleep(500);
    }
  }
  throw new Error(`PostgreSQL ${VERSION}/${NAME} did not accept connections within 30 s.`);
}

/**
 * Cluster 15/proof on `port`: created when missing (which needs root and Debian's
 * postgresql-common, as on the CI machines), started, the postgres password set as .ci/run
 * does. Null, with the reason printed, when it cannot be had.
 */
export async function proofCluster(port: number): Promise<ProofCluster | null> {
  let found: string | null;
  try {
    found = status();
  } catch {
    console.log("No pg_lsclusters (postgresql-common): the database outage proof is left out.");
    return null;
  }
  if (found === null && process.getuid?.() !== 0) {
    console.log(`No cluster ${VERSION}/${NAME} and not root to create it: the outage proof is left out.`);
    return null;
  }
  if (found === null) run("pg_createcluster", [VERSION, NAME, "-p", String(port)]);
  if (found !== "online") run("pg_ctlcluster", [VERSION, NAME, "start"]);
  await ready(port);
  if (process.getuid?.() === 0)
    run("su", ["postgres", "-c", `psql -p ${port} -qc "ALTER USER postgres PASSWORD 'postgres'"`]);
  const cluster: ProofCluster = {
    port,
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    down: false,
    stop() {
      cluster.down = true;
      run("pg_ctlcluster", [VERSION, NAME, "stop", "-m", "fast"]);
    },
    async start() {
      try {
        run("pg_ctlcluster", [VERSION, NAME, "start"]);
      } catch (e) {
        // "already running" (a stop that failed) is fine; anything else is not.
        if (status() !== "online") throw e;
      }
      await ready(port);
      cluster.down = false;
    },
    async release() {
      if (cluster.down) await cluster.start();
      if (found === null) run("pg_dropcluster", [VERSION, NAME, "--stop"]);
      else if (found !== "online") run("pg_ctlcluster", [VERSION, NAME, "stop"]);
    },
  };
  return cluster;
}
