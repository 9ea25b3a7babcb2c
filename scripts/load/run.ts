// One load run (`npm run load`, and the load part of `npm run proof`): on each engine, starts
// scripts/load/target.ts (a Hono hello-world baseline and the portal in one Node process),
// measures the baseline and the portal calls with autocannon, a sign-in storm beside the
// public order, and the largest number of once-a-minute devices the push endpoint sustains.
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { fire, type Measured, type Shot } from "./cannon.ts";
import { loadSessionToken, MONTH_REPORT_HASH } from "./fixtures.ts";
import { describeStep, ingestRamp, ingestStep, type IngestStep } from "./ingest.ts";
import { createDatabase } from "./postgres.ts";
import { sessionCookie, signInStorm } from "./storm.ts";
import type { TargetReady } from "./target.ts";

/** How long and how hard: the full run's figures come from the environment (scripts/load.ts). */
export interface LoadOptions {
  engines: ("postgres" | "pglite")[];
  port: number;
  connections: number;
  /** Seconds each call (and each baseline) is loaded. */
  seconds: number;
  ingestSeconds: number;
  maxDevices: number;
  /** People signing in at once in each storm. */
  storm: number;
  /** Connections loading the public order beside each storm. */
  stormConnections: number[];
  /** Signed-in people whose sessions the session check takes in turn. */
  users: number;
  /** The PostgreSQL server to create the run's database on (default: BENCH_DATABASE_URL's). */
  databaseUrl?: string;
  /** Only the ingestion ramp (and the sustained run): LOAD_ONLY=ingest. */
  ingestOnly?: boolean;
  /** The ramp's first step (250 devices by default). */
  ingestFirst?: number;
  /** A sustained run after the ramp: this many devices for this many seconds (LOAD_SUSTAIN_*). */
  sustain?: { devices: number; seconds: number } | undefined;
}

/** A measured call with the mean of the baselines measured just before and after it, and the target's CPU share (1 = one core). */
export interface Row extends Measured {
  baseline: number;
  serverCpu: number;
}

export interface EngineRun {
  engine: string;
  ready: TargetReady;
  rows: Row[];
  storm: { order: Measured; signIns: Awaited<ReturnType<typeof signInStorm>> }[];
  ingest: IngestStep[];
  /** The sustained run's one step over its whole window, when asked for. */
  sustained?: IngestStep | undefined;
  largest: number;
  limitReached: boolean;
}

export const BASELINE = "Hono hello-world baseline";

/** Starts the target on one database and waits for its ready message. */
async function startTarget(o: LoadOptions, extraEnv: Record<string, string>) {
  const child = fork(new URL("./target.ts", import.meta.url), {
    env: {
      ...process.env,
      LOAD_PORT: String(o.port),
      LOAD_DEVICES: String(o.maxDevices),
      LOAD_USERS: String(o.users),
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    // For "settle" (target.ts): a full collection before the ingestion ramp.
    // LOAD_TARGET_ARGS: more Node flags for the target alone ("--cpu-prof" to see where its time goes).
    execArgv: [
      ...process.execArgv,
      "--expose-gc",
      ...(process.env["LOAD_TARGET_ARGS"]?.split(" ").filter(Boolean) ?? []),
    ],
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  // Seeding 8,000 devices and a month of history takes a minute or two here; ten is a hang.
  const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
  const ready = await new Promise<TargetReady>((resolve, reject) => {
    child.once("message", (m) => resolve(m as TargetReady));
    child.once("exit", (code, signal) => reject(new Error(`load target exited with ${code ?? signal}`)));
  }).finally(() => clearTimeout(timer));
  /** Asks the target for `message`'s work and waits for its answer or its exit. */
  const ask = (message: string) =>
    new Promise<void>((resolve) => {
      if (gone() || !child.connected) return resolve();
      child.once("exit", () => resolve());
      if (message !== "stop") child.once("message", () => resolve());
      child.send(message, (error) => error && resolve());
    });
  /** Stops the target (killed if it does not exit within 30 s): its ports are free afterwards. */
  const stop = async () => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await ask("stop");
    if (!gone()) await new Promise((r) => child.once("exit", r));
    clearTimeout(killer);
  };
  return { ready, stop, settle: () => ask("settle"), pid: child.pid! };
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
function shots(base: string, cookie: string, ready: TargetReady, users: number): Shot[] {
  const pusher = ready.pushers[0]!;
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
      // Each connection asks for the sessions of 200 people in turn, about one each a second:
      // a session's answer is reused for half to all of ANSWER_CACHE_MS (1 s), so most of them
      // are read from the database again on the next turn. The connections run in step, so
      // checks of one session arrive together and share that read (server/http/answers.ts).
      name: `GET /api/v1/session (${users} people in turn)`,
      url: `${base}/api/v1/session`,
      headers: BROWSER,
      headerCycle: Array.from({ length: users }, (_, i) => ({
        cookie: `${SESSION_COOKIE}=${loadSessionToken(i)}`,
      })),
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

/** GET public order measured while `o.storm` sign-ins run at once; stops when they are done. */
async function stormBeside(app: string, order: Shot, o: LoadOptions, connections: number, net: number) {
  let instance: { stop(): void } | undefined;
  const measured = fire(order, { connections, seconds: 600, running: (i) => (instance = i) });
  await new Promise((r) => setTimeout(r, 300));
  const signIns = await signInStorm(app, o.storm, net).finally(() => instance!.stop());
  return { order: { ...(await measured), name: `GET public order, ${connections} connections` }, signIns };
}

async function runEngine(
  o: LoadOptions,
  engine: string,
  extraEnv: Record<string, string>,
): Promise<EngineRun> {
  console.log(`\n== ${engine}: seeding the demo, a month of history and ${o.maxDevices} load devices...`);
  const { ready, stop, settle, pid } = await startTarget(o, extraEnv);
  console.log(`ready in ${ready.seedSeconds.toFixed(0)} s`);
  const app = `http://127.0.0.1:${ready.appPort}`;
  const baseline: Shot = { name: BASELINE, url: `http://127.0.0.1:${ready.baselinePort}/` };
  try {
    const rows: Row[] = [];
    // This machine's speed drifts over minutes (shared cores; the baseline measured 15,000 to
    // 29,000 req/s within one quarter of an hour on 2026-11-28): each call is compared with the
    // mean of the baselines measured just before and just after it, and the target's CPU use
    // shows whether the server or the load generator (one core, parsing every answer) was
    // the limit.
    const measure = async (shot: Shot, base: Measured | null) => {
      const cpu = cpuSeconds(pid);
      const started = performance.now();
      const m = await fire(shot, { connections: o.connections, seconds: o.seconds });
      const serverCpu = (cpuSeconds(pid) - cpu) / ((performance.now() - started) / 1000);
      const row = { ...m, baseline: base?.rps ?? m.rps, serverCpu };
      rows.push(row);
      console.log(
        `  ${m.name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, server CPU ${(100 * serverCpu).toFixed(0)} %, ${m.statuses}`,
      );
      return row;
    };
    const all = shots(app, await sessionCookie(app), ready, o.users);
    let before = o.ingestOnly ? null! : await measure(baseline, null);
    for (const shot of o.ingestOnly ? [] : all) {
      const row = await measure(shot, before);
      const after = await measure(baseline, null);
      row.baseline = (before.rps + after.rps) / 2;
      before = after;
    }
    const storm = [];
    for (const [n, connections] of (o.ingestOnly ? [] : o.stormConnections).entries()) {
      const result = await stormBeside(app, all[0]!, o, connections, 77 + n);
      storm.push(result);
      console.log(
        `  storm of ${o.storm} sign-ins (${result.signIns.signedIn} signed in; answers ${result.signIns.statuses}, ${result.signIns.seconds.toFixed(1)} s): ` +
          `public order at ${connections} connections p99 ${result.order.p99} ms`,
      );
    }
    // The storms leave a heap V8 later compacts in one stop of about 300 ms (--trace-gc);
    // landing in a step, it alone failed PGlite's 1,000 devices. The ramp measures the
    // sustained rate, so that garbage is collected first (docs/scaling.md).
    await settle();
    const ingest: IngestStep[] = [];
    const ramp = await ingestRamp(app, {
      first: o.ingestFirst ?? 250,
      max: o.maxDevices,
      seconds: o.ingestSeconds,
      onStep: (s) => {
        ingest.push(s);
        console.log(`  ingestion ${describeStep(s)}`);
      },
    });
    let sustained: IngestStep | undefined;
    if (o.sustain) {
      const { devices, seconds } = o.sustain;
      console.log(`  sustained: ${devices} devices for ${seconds} s...`);
      sustained = await ingestStep(app, devices, seconds);
      console.log(`  sustained ${describeStep(sustained)}`);
    }
    return { engine, ready, rows, storm, ingest, sustained, ...ramp };
  } finally {
    await stop();
  }
}

/** Runs every engine of `o` one after the other (PostgreSQL only when one answers). */
export async function loadRun(o: LoadOptions): Promise<EngineRun[]> {
  const runs: EngineRun[] = [];
  for (const engine of o.engines) {
    if (engine === "postgres") {
      const pg = await createDatabase("proof_l", o.databaseUrl);
      if (!pg) {
        console.log("(no PostgreSQL answers: run `pg_ctlcluster 15 main start` for its rows)");
        continue;
      }
      try {
        runs.push(await runEngine(o, "PostgreSQL", { LOAD_DATABASE_URL: pg.url }));
      } finally {
        await pg.drop();
      }
    } else {
      const dir = mkdtempSync(join(tmpdir(), "l-load-"));
      try {
        runs.push(await runEngine(o, "PGlite", { LOAD_DATA_DIR: dir }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return runs;
}
