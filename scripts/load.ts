// `npm run load`: on PostgreSQL (when one answers) and on PGlite, starts scripts/load/target.ts
// (a Hono hello-world baseline and the portal in one Node process), then with autocannon
// measures the baseline and the portal calls, a sign-in storm beside the public order, and
// the largest number of once-a-minute devices the push endpoint sustains. Prints the tables.
// LOAD_CONNECTIONS (50), LOAD_SECONDS (10), LOAD_INGEST_SECONDS (30), LOAD_ENGINES
// ("postgres,pglite"), LOAD_MAX_DEVICES (8000) and BENCH_DATABASE_URL tune it.
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../server/seed/demo.ts";
import { fire, keepBodies, settings, type Measured, type Shot } from "./load/cannon.ts";
import { loadSessionToken, MONTH_REPORT_HASH } from "./load/fixtures.ts";
import { SESSION_COOKIE } from "../server/http/cookies.ts";
import { ingestRamp, type IngestStep } from "./load/ingest.ts";
import { sessionCookie, signInStorm } from "./load/storm.ts";
import type { TargetReady } from "./load/target.ts";
import { createDatabase } from "./load/postgres.ts";

const env = process.env;
const PORT = Number(env["LOAD_PORT"] ?? 4580);
const INGEST_SECONDS = Number(env["LOAD_INGEST_SECONDS"] ?? 30);
const MAX_DEVICES = Number(env["LOAD_MAX_DEVICES"] ?? 8000);
const STORM = Number(env["LOAD_STORM"] ?? 200);
const ENGINES = (env["LOAD_ENGINES"] ?? "postgres,pglite").split(",");
const USERS = Number(env["LOAD_USERS"] ?? 200);
const READ_SHARE = 0.25;
const READ_P99_MS = 100;

/** A measured call with the baseline measured just before it and the target's CPU share (1 = one core). */
interface Row extends Measured {
  baseline: number;
  serverCpu: number;
}

interface EngineRun {
  engine: string;
  ready: TargetReady;
  rows: Row[];
  storm: { order: Measured; signIns: Awaited<ReturnType<typeof signInStorm>> }[];
  ingest: IngestStep[];
  largest: number;
  limitReached: boolean;
}

/** Starts the target on one database and waits for its ready message. */
async function startTarget(extraEnv: Record<string, string>) {
  const child = fork(new URL("./load/target.ts", import.meta.url), {
    env: { ...env, LOAD_PORT: String(PORT), LOAD_DEVICES: String(MAX_DEVICES), ...extraEnv },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const ready = await new Promise<TargetReady>((resolve, reject) => {
    child.once("message", (m) => resolve(m as TargetReady));
    child.once("exit", (code) => reject(new Error(`load target exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.send("stop");
    });
  return { ready, stop, pid: child.pid! };
}

/** CPU seconds a process has used (user + system), from /proc: the target's share of the work. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of the file (11 and 12 after the name), in ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** What every browser's fetch sends: the reads are measured as pages make them, gzip accepted. */
const BROWSER = { "accept-encoding": "gzip, deflate, br, zstd" };

/** The portal calls, as their pages and devices make them. */
function shots(base: string, cookie: string, ready: TargetReady): Shot[] {
  const pusher = ready.pushers[0]!;
  let turn = 0;
  let second = 0;
  const nowS = Math.floor(Date.now() / 1000);
  return [
    {
      name: "GET public order",
      url: `${base}/api/v1/orders/public/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`,
      headers: BROWSER,
    },
    {
      name: "GET public report metadata",
      url: `${base}/api/v1/device-data/public/report/${DEMO.reportHash}`,
      headers: BROWSER,
    },
    {
      name: "GET report chart data (30 days)",
      url: `${base}/api/v1/device-data/public/report/data/${MONTH_REPORT_HASH}`,
      headers: BROWSER,
    },
    {
      name: "GET /api/v1/session (signed in, one person)",
      url: `${base}/api/v1/session`,
      headers: { ...BROWSER, cookie },
    },
    {
      // Each request another person's session in turn: the reuse of one session's answer
      // (within ANSWER_CACHE_MS) hardly helps here; this is the database's share.
      name: `GET /api/v1/session (${USERS} people in turn)`,
      url: `${base}/api/v1/session`,
      headers: BROWSER,
      headersEach: () => ({ cookie: `${SESSION_COOKIE}=${loadSessionToken(turn++ % USERS)}` }),
    },
    {
      name: `POST device push (demo key, ${pusher.channelKeys.length} readings)`,
      url: `${base}/api/v1/device-data/push`,
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Device ${pusher.key}` },
      // Each push its own second (going back from now), as one device's successive pushes are.
      body: () =>
        JSON.stringify({
          macAddress: pusher.mac,
          readings: pusher.channelKeys.map((channelKey, c) => ({
            channelKey,
            value: 20 + c,
            time: nowS - ++second,
          })),
        }),
    },
  ];
}

async function runEngine(engine: string, extraEnv: Record<string, string>): Promise<EngineRun> {
  console.log(`\n== ${engine}: seeding the demo, a month of history and ${MAX_DEVICES} load devices...`);
  const { ready, stop, pid } = await startTarget(extraEnv);
  console.log(`ready in ${ready.seedSeconds.toFixed(0)} s`);
  const app = `http://127.0.0.1:${ready.appPort}`;
  const baseline: Shot = {
    name: "Hono hello-world baseline",
    url: `http://127.0.0.1:${ready.baselinePort}/`,
  };
  try {
    const rows: Row[] = [];
    // This machine's speed drifts over minutes (shared cores): each call is compared with a
    // baseline measured just before it, and the target's CPU use shows whether the server
    // or the load generator (one core, parsing every answer) was the limit.
    const measure = async (shot: Shot, base: Measured | null) => {
      const cpu = cpuSeconds(pid);
      const started = performance.now();
      const m = await fire(shot);
      const serverCpu = (cpuSeconds(pid) - cpu) / ((performance.now() - started) / 1000);
      rows.push({ ...m, baseline: base?.rps ?? m.rps, serverCpu });
      console.log(
        `  ${m.name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, server CPU ${(100 * serverCpu).toFixed(0)} %, ${m.statuses}`,
      );
      return m;
    };
    const all = shots(app, await sessionCookie(app), ready);
    for (const shot of all) await measure(shot, await measure(baseline, null));
    const storm = [];
    for (const [n, connections] of [settings.connections, 10].entries()) {
      const result = await stormBeside(app, all[0]!, connections, 77 + n);
      storm.push(result);
      console.log(
        `  storm of ${STORM} sign-ins (${result.signIns.signedIn} signed in; answers ${result.signIns.statuses}, ${result.signIns.seconds.toFixed(1)} s): ` +
          `public order at ${connections} connections p99 ${result.order.p99} ms`,
      );
    }
    const ingest: IngestStep[] = [];
    const ramp = await ingestRamp(app, {
      first: 250,
      max: MAX_DEVICES,
      seconds: INGEST_SECONDS,
      onStep: (s) => {
        ingest.push(s);
        console.log(
          `  ingestion ${s.devices} devices: ${s.pushes} pushes, p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, ${s.failed} failed`,
        );
      },
    });
    return {
      engine,
      ready,
      rows,
      storm,
      ingest,
      ...ramp,
    };
  } finally {
    await stop();
  }
}

/** GET public order measured while `STORM` sign-ins run at once; stops when they are done. */
async function stormBeside(app: string, order: Shot, connections: number, net: number) {
  let instance: { stop(): void } | undefined;
  const measured = fire(order, { connections, seconds: 600, running: (i) => (instance = i) });
  await new Promise((r) => setTimeout(r, 300));
  const signIns = await signInStorm(app, STORM, net);
  instance!.stop();
  return { order: { ...(await measured), name: `GET public order, ${connections} connections` }, signIns };
}

function printTables(runs: EngineRun[]) {
  console.log(
    `\n### Load (autocannon, ${settings.connections} connections, ${settings.seconds} s each; reads accept gzip as browsers do; ${keepBodies ? "bodies kept as strings, as autocannon ships" : settings.workers ? "unread bodies not kept as strings, except by the worker threads of the plain GET calls" : "unread bodies not kept as strings"})\n`,
  );
  for (const run of runs) {
    console.log(`\n${run.engine}\n`);
    console.log(
      "| call | req/s | baseline just before | ratio | p50 (ms) | p99 (ms) | non-2xx / errors | server CPU | goal met |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const m of run.rows) {
      if (m.name === "Hono hello-world baseline") continue;
      const read = m.name.startsWith("GET");
      const met = read
        ? m.rps >= READ_SHARE * m.baseline && m.p99 <= READ_P99_MS && m.errors === 0
          ? "yes"
          : "no"
        : "";
      const ratio = `${((100 * m.rps) / m.baseline).toFixed(1)} %`;
      console.log(
        `| ${m.name} | ${m.rps.toFixed(0)} | ${m.baseline.toFixed(0)} | ${ratio} | ${m.p50} | ${m.p99} | ${m.errors} | ${(100 * m.serverCpu).toFixed(0)} % | ${met} |`,
      );
    }
    for (const s of run.storm)
      console.log(
        `| ${s.order.name}, during ${STORM} concurrent sign-ins (${s.signIns.signedIn} signed in; answers ${s.signIns.statuses}; all done in ${s.signIns.seconds.toFixed(1)} s) | ${s.order.rps.toFixed(0)} | | ${s.order.p50} | ${s.order.p99} | ${s.order.errors} | ${s.order.p99 <= 200 && s.order.errors === 0 ? "yes" : "no"} (p99 ≤ 200) |`,
      );
  }
  console.log(`\n### Ingestion: devices pushing 20 channels every 60 s (${INGEST_SECONDS} s per step)\n`);
  console.log(`| engine | devices | pushes/s | pushes | p50 (ms) | p99 (ms) | failed | p99 ≤ 250 ms |`);
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const run of runs)
    for (const s of run.ingest)
      console.log(
        `| ${run.engine} | ${s.devices} | ${(s.devices / 60).toFixed(1)} | ${s.pushes} | ${s.p50.toFixed(0)} | ${s.p99.toFixed(0)} | ${s.failed} | ${s.holds ? "yes" : "no"} |`,
      );
  for (const run of runs)
    console.log(
      `\n${run.engine}: largest N that holds: ${run.largest}${run.limitReached ? "" : ` (or more: the ramp stopped at ${MAX_DEVICES})`}`,
    );
  console.log("\n### Storage after seeding (a month of demo history)\n");
  console.log(
    "| engine | table | rows | heap bytes/row | bytes/row with indexes |\n|---|---|---:|---:|---:|",
  );
  for (const { engine, ready } of runs) {
    const s = ready.samples;
    const row = (table: string, n: number, heap: number, total: number) =>
      console.log(`| ${engine} | ${table} | ${n} | ${(heap / n).toFixed(1)} | ${(total / n).toFixed(1)} |`);
    row("samples", s.rows, s.heap, s.total);
    row("sample_rollups", s.rollupRows, s.rollupHeap, s.rollupTotal);
  }
}

const runs: EngineRun[] = [];
for (const engine of ENGINES) {
  if (engine === "postgres") {
    const pg = await createDatabase("proof_l");
    if (!pg) {
      console.log("(no PostgreSQL answers: run `pg_ctlcluster 15 main start` for its rows)");
      continue;
    }
    try {
      runs.push(await runEngine("PostgreSQL", { LOAD_DATABASE_URL: pg.url }));
    } finally {
      await pg.drop();
    }
  } else {
    const dir = mkdtempSync(join(tmpdir(), "l-load-"));
    try {
      runs.push(await runEngine("PGlite", { LOAD_DATA_DIR: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
printTables(runs);
