import autocannon from "autocannon";
import { createWriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { Instance } from "./instance.ts";
import { makeStandby, type Standby } from "./standby.ts";
import { markdownTable } from "./table.ts";
import { PG_URL, postgresTarget } from "./target.ts";
import { readPaths } from "./traffic.ts";

/*
 * The read replica under load (issue 38): a portal on the proof's PostgreSQL with
 * DATABASE_READ_URL on a real hot standby (scripts/proof/standby.ts), readers on the public
 * reads without a pause, a writer on the primary meanwhile, and the standby's replay paused,
 * then the standby stopped and started again. /metrics, scraped through the run, says which
 * database served each phase; the readers' answers say whether a visitor saw an error.
 */

const STANDBY_PORT = 5433;
/** The portal's lag limit in this run: the paused phase passes it within a few seconds. */
const MAX_LAG_SECONDS = 2;
const CONNECTIONS = 16;

export interface ReplicaPhase {
  name: string;
  seconds: number;
  requests: number;
  /** Answers outside 2xx, and requests without an answer. */
  failed: number;
  p99Ms: number;
  replicaReads: number;
  primaryReads: number;
  fallbacks: { away: number; lag: number; failed: number };
  maxLagSeconds: number | null;
}

export interface ReplicaResult {
  setupSeconds: number;
  phases: ReplicaPhase[];
  stayedUp: boolean;
}

type Figures = Record<string, number>;

/** The read router's series of one /metrics scrape (NaN lag while the replica is away). */
async function scrape(url: string): Promise<Figures> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const figures: Figures = {};
  for (const line of text.split("\n")) {
    const m =
      /^(db_public_reads_total|db_replica_fallbacks_total|db_replica_lag_seconds|db_replica_up)(?:\{\w+="(\w+)"\})? (\S+)$/.exec(
        line,
      );
    if (m) figures[m[2] ? `${m[1]}:${m[2]}` : m[1]!] = Number(m[3]);
  }
  return figures;
}

/** Waits until the portal's monitor has seen the replica up (30 s at most). */
async function replicaServing(url: string) {
  for (let i = 0; i < 120; i++) {
    if ((await scrape(url).catch(() => ({}) as Figures))["db_replica_up"] === 1) return;
    await sleep(250);
  }
  throw new Error("The portal's monitor never saw the standby up.");
}

/** The phases, in order: what each does to the standby as it begins. */
const PHASES: { name: string; begin: (s: Standby) => Promise<unknown> }[] = [
  { name: "replica streaming", begin: async () => {} },
  { name: "replay paused (lag grows)", begin: (s) => s.psql("select pg_wal_replay_pause()") },
  { name: "replay resumed", begin: (s) => s.psql("select pg_wal_replay_resume()") },
  { name: "standby stopped", begin: (s) => s.stop() },
  { name: "standby started again", begin: (s) => s.start() },
];

/** The replica proof; null when no standby (or no PostgreSQL) can be had here. */
export async function replicaRun(
  port: number,
  logFile: string,
  phaseSeconds: number,
): Promise<ReplicaResult | null> {
  const began = Date.now();
  const target = await postgresTarget();
  if (!target) return null;
  const log = createWriteStream(logFile, { flags: "a" });
  let standby: Standby | null = null;
  let instance: Instance | null = null;
  try {
    standby = await makeStandby(PG_URL, STANDBY_PORT);
    if (!standby) return null;
    const primaryUrl = target.env["DATABASE_URL"]!;
    instance = new Instance(
      port,
      {
        ...target.env,
        DATABASE_READ_URL: standby.urlOf(primaryUrl),
        DATABASE_READ_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
        // Every read reaches a database: the microcache would hide where it ran.
        ANSWER_CACHE_MS: "0",
      },
      log,
    );
    await instance.ready();
    const database = await openDatabase({ url: primaryUrl });
    const { db } = database;
    const reads = await readPaths(db);
    await db.execute(sql`create table proof_replica_ticks (at timestamptz not null default now())`);
    const order = reads.paths.find((p) => p.includes("/orders/public/"))!;
    const paths = [
      ...reads.paths.filter((p) => p.startsWith("/api/")),
      `/api/v1/device-data/public/report/${DEMO.reportHash}`,
      `/api/v1/device-data/public/report/data/${DEMO.reportHash}`,
      order.replace("/orders/public/", "/shipments/shipment-list/"),
    ];
    await replicaServing(instance.url);
    const setupSeconds = Math.round((Date.now() - began) / 1000);

    // A writer on the primary all along: the standby has WAL to replay (and to fall behind on).
    const going = { writing: true, scraping: true };
    const writer = (async () => {
      while (going.writing) {
        await db.execute(sql`insert into proof_replica_ticks default values`).catch(() => {});
        await sleep(100);
      }
    })();
    const answers: { at: number; ms: number; ok: boolean }[] = [];
    // Without a callback autocannon returns its instance (an event emitter, and a promise).
    const cannon = autocannon({
      url: instance.url,
      connections: CONNECTIONS,
      duration: phaseSeconds * PHASES.length + 2,
      requests: paths.map((path) => ({ path })),
    }) as unknown as autocannon.Instance;
    cannon.on("response", (_client: unknown, status: number, _bytes: number, ms: number) =>
      answers.push({ at: Date.now(), ms, ok: status >= 200 && status < 300 }),
    );
    cannon.on("reqError", () => answers.push({ at: Date.now(), ms: 0, ok: false }));
    const done = new Promise<autocannon.Result>((resolve) => cannon.on("done", resolve));

    const marks: { at: number; figures: Figures; lagMax: number | null }[] = [];
    let lagMax: number | null = null;
    const scraper = (async () => {
      while (going.scraping) {
        const lag = (await scrape(instance!.url).catch(() => ({}) as Figures))["db_replica_lag_seconds"];
        if (lag !== undefined && Number.isFinite(lag)) lagMax = Math.max(lagMax ?? 0, lag);
        await sleep(250);
      }
    })();
    for (const phase of PHASES) {
      await phase.begin(standby);
      marks.push({ at: Date.now(), figures: await scrape(instance.url), lagMax });
      lagMax = null;
      await sleep(phaseSeconds * 1000);
    }
    marks.push({ at: Date.now(), figures: await scrape(instance.url), lagMax });
    cannon.stop();
    await done;
    going.scraping = false;
    going.writing = false;
    await Promise.all([scraper, writer]);
    await database.close();
    const stayedUp = instance.exit === null;
    await instance.terminate();
    return { setupSeconds, phases: phasesOf(marks, answers), stayedUp };
  } finally {
    await instance?.kill();
    standby?.release();
    await target.remove().catch(() => {});
    log.end();
  }
}

/** Each phase's answers and the router's counters between its two scrapes. */
function phasesOf(
  marks: { at: number; figures: Figures; lagMax: number | null }[],
  answers: { at: number; ms: number; ok: boolean }[],
): ReplicaPhase[] {
  return PHASES.map((phase, i) => {
    const [from, to] = [marks[i]!, marks[i + 1]!];
    const delta = (key: string) => (to.figures[key] ?? 0) - (from.figures[key] ?? 0);
    const inPhase = answers.filter((a) => a.at >= from.at && a.at < to.at);
    const times = inPhase.map((a) => a.ms).sort((a, b) => a - b);
    return {
      name: phase.name,
      seconds: Math.round((to.at - from.at) / 1000),
      requests: inPhase.length,
      failed: inPhase.filter((a) => !a.ok).length,
      p99Ms: Math.round(times[Math.floor(times.length * 0.99)] ?? 0),
      replicaReads: delta("db_public_reads_total:replica"),
      primaryReads: delta("db_public_reads_total:primary"),
      fallbacks: {
        away: delta("db_replica_fallbacks_total:away"),
        lag: delta("db_replica_fallbacks_total:lag"),
        failed: delta("db_replica_fallbacks_total:failed"),
      },
      // The scraper's largest lag seen during the phase (kept with the next mark).
      maxLagSeconds: to.lagMax,
    };
  });
}

/** What must hold: no visitor error anywhere, and each phase served where it should be. */
export function replicaFailures(r: ReplicaResult): string[] {
  const [streaming, paused, resumed, stopped, back] = r.phases;
  const share = (p: ReplicaPhase | undefined) =>
    p ? p.replicaReads / Math.max(1, p.replicaReads + p.primaryReads) : 0;
  const must: [string, boolean][] = [
    ...r.phases.map((p): [string, boolean] => [`${p.failed} failed requests while ${p.name}`, p.failed > 0]),
    [
      `${Math.round(share(streaming) * 100)} % of reads on the replica while it streamed (want ≥ 95 %)`,
      share(streaming) < 0.95,
    ],
    [`no lag fallback while replay was paused`, !paused || paused.fallbacks.lag === 0],
    [`no reads back on the replica after replay resumed`, !resumed || resumed.replicaReads === 0],
    [
      `no fallback while the standby was stopped`,
      !stopped || stopped.fallbacks.away + stopped.fallbacks.failed === 0,
    ],
    [`no reads back on the replica after it started again`, !back || back.replicaReads === 0],
    ["the server process exited", !r.stayedUp],
  ];
  return must.filter(([, failed]) => failed).map(([what]) => `Read replica: ${what}`);
}

/** The replica proof as one table, a row per phase. */
export function replicaTable(r: ReplicaResult): string {
  return markdownTable(
    [
      "Read replica (hot standby)",
      "Seconds",
      "Requests",
      "Failed",
      "p99 (ms)",
      "Reads on replica",
      "Reads on primary",
      "Fallbacks away / lag / failed",
      "Max lag seen (s)",
    ],
    r.phases.map((p) => [
      p.name,
      p.seconds,
      p.requests,
      p.failed,
      p.p99Ms,
      p.replicaReads,
      p.primaryReads,
      `${p.fallbacks.away} / ${p.fallbacks.lag} / ${p.fallbacks.failed}`,
      p.maxLagSeconds === null ? "—" : p.maxLagSeconds.toFixed(1),
    ]),
  );
}
