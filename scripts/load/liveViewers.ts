// The live-viewer part of `npm run load`: N sockets (5,000) watching devices through two
// portal processes on one PostgreSQL (one process on PGlite, which one process owns), public
// pages and signed-in pages, about five per device; the generator pushes readings to those
// devices at a steady rate through the push API, alternating the instances, and measures for
// every (push, watching socket) the delay from the push's 2xx answer to the state showing it.
import { mkdtempSync, readFileSync, rmSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, rows } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { Instance } from "../proof/instance.ts";
import {
  addLoadDevices,
  addLoadSessions,
  addStormUsers,
  CHANNELS_PER_DEVICE,
  loadChannelKey,
  loadKey,
  loadMac,
  loadSessionToken,
} from "./fixtures.ts";
import { createDatabase } from "./postgres.ts";
import {
  closeViewers,
  deliveryDelays,
  notWatching,
  openViewers,
  SEQ_CHANNEL,
  type Delays,
  type Pushed,
  type ViewerPlan,
} from "./liveSockets.ts";

export interface LiveViewerOptions {
  engines: ("postgres" | "pglite")[];
  /** The first instance's port; the second takes the next one. */
  port: number;
  viewers: number;
  devices: number;
  /** Signed-in people whose sessions the signed-in viewers share (several tabs each). */
  users: number;
  pushesPerSecond: number;
  seconds: number;
  databaseUrl?: string;
}

export interface LiveViewerRun extends Delays {
  engine: string;
  instances: number;
  viewers: number;
  /** Viewers whose socket opened and got its first state. */
  watching: number;
  devices: number;
  pushes: number;
  pushesFailed: number;
  /** Pushes without an answer or answered a 5xx other than 503 with Retry-After. */
  pushesUnexpected: number;
  /** CPU shares (1 = one core) over the push phase: the generator's, and each instance's. */
  generatorCpu: number;
  serverCpu: number[];
}

/**
 * LOAD_LIVE_VIEWERS (5000; 0 leaves the part out), LOAD_LIVE_DEVICES (a fifth of the
 * viewers), LOAD_LIVE_PUSHES (per second, 25: each of the 1,000 devices every 40 s), LOAD_LIVE_SECONDS (30), LOAD_LIVE_PORT (the
 * load port + 10) and LOAD_LIVE_USERS (signed-in people, each with a session of their own: one per signed-in viewer).
 */
export function liveOptions(engines: LiveViewerOptions["engines"], loadPort: number): LiveViewerOptions {
  const env = process.env;
  const viewers = Number(env["LOAD_LIVE_VIEWERS"] ?? 5000);
  return {
    engines,
    port: Number(env["LOAD_LIVE_PORT"] ?? loadPort + 10),
    viewers,
    devices: Number(env["LOAD_LIVE_DEVICES"] ?? Math.max(1, Math.ceil(viewers / 5))),
    users: Number(env["LOAD_LIVE_USERS"] ?? Math.max(1, Math.ceil(viewers / 2))),
    pushesPerSecond: Number(env["LOAD_LIVE_PUSHES"] ?? 25),
    seconds: Number(env["LOAD_LIVE_SECONDS"] ?? 30),
    ...(env["BENCH_DATABASE_URL"] ? { databaseUrl: env["BENCH_DATABASE_URL"] } : {}),
  };
}

/** Seconds after the last push that late states still count. */
const GRACE_MS = 5000;
const now = () => performance.timeOrigin + performance.now();
const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
/** Device i's public page hash (at least 16 characters, as the public routes ask). */
const publicHash = (i: number) => `load-live-page-${String(i).padStart(6, "0")}`;

/** The demo, the load people with sessions, and `devices` load devices with public links. */
async function prepare(url: string | undefined, dataDir: string | undefined, o: LiveViewerOptions) {
  const database = await openDatabase({ url, dataDir });
  try {
    const db = database.db;
    await seedDemo(db, { now: new Date(), sampleDays: 0 });
    await addStormUsers(db, o.users);
    await addLoadSessions(db, o.users);
    await addLoadDevices(db, o.devices);
    await db.execute(sql`update devices set public_page_hash = 'load-live-page-' || substr(mac_address, 4)
      where mac_address like 'LD:%'`);
    const found = await rows<{ id: number; mac: string }>(
      db,
      sql`select id, mac_address as mac from devices where mac_address like 'LD:%' order by mac_address`,
    );
    return found.map((d) => d.id);
  } finally {
    await database.close();
  }
}

/**
 * Viewer k goes to instance k % instances and watches load device ⌊k / instances⌋ % devices
 * (so each device has viewers on every instance); every other one a public page, the rest a
 * signed-in page of one of the `users` sessions.
 */
function plans(o: LiveViewerOptions, bases: string[], ids: number[]): ViewerPlan[] {
  return Array.from({ length: o.viewers }, (_, k) => {
    const i = Math.floor(k / bases.length) % ids.length;
    const base = bases[k % bases.length]!;
    return Math.floor(k / bases.length) % 2 === 0
      ? { base, deviceId: ids[i]!, publicPageHash: publicHash(i) }
      : { base, deviceId: ids[i]!, sessionToken: loadSessionToken(k % o.users) };
  });
}

const pushBody = (i: number, seq: number) =>
  JSON.stringify({
    macAddress: loadMac(i),
    readings: Array.from({ length: CHANNELS_PER_DEVICE }, (_, c) => ({
      channelKey: loadChannelKey(i, c),
      value: c === SEQ_CHANNEL ? seq : 20 + c / 10,
    })),
  });

/** Pushes to the devices in turn at a steady rate, each through the next instance. */
async function pushAtRate(o: LiveViewerOptions, bases: string[], ids: number[]) {
  const gap = 1000 / o.pushesPerSecond;
  const start = performance.now() + 50;
  const pushed: Pushed[] = [];
  let failed = 0;
  let unexpected = 0;
  const all: Promise<void>[] = [];
  for (let seq = 1; (seq - 1) * gap < o.seconds * 1000; seq++) {
    const wait = start + (seq - 1) * gap - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const i = (seq - 1) % ids.length;
    const sentAt = now();
    all.push(
      fetch(`${bases[seq % bases.length]}/api/v1/device-data/push`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Device ${loadKey(i)}`,
          "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        body: pushBody(i, seq),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.ok) pushed.push({ deviceId: ids[i]!, seq, sentAt, answeredAt: now() });
          else failed++;
          // An overloaded server's 503 with Retry-After is its designed answer (ingest.ts).
          if (res.status >= 500 && !(res.status === 503 && res.headers.has("retry-after"))) unexpected++;
        })
        .catch(() => {
          failed++;
          unexpected++;
        }),
    );
  }
  await Promise.all(all);
  return { pushed, failed, unexpected, count: all.length };
}

async function runEngine(o: LiveViewerOptions, engine: string, url?: string, dataDir?: string) {
  const count = url ? 2 : 1;
  console.log(`\n== ${engine} live viewers: ${o.viewers} sockets on ${count} instance(s)...`);
  const ids = await prepare(url, dataDir, o);
  const logDir = mkdtempSync(join(tmpdir(), "l-live-"));
  const log = createWriteStream(join(logDir, "instances.log"));
  // Every viewer comes from this computer: no cap of sockets per client address.
  const env = { LIVE_SOCKETS_PER_CLIENT: "0", ...(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! }) };
  const instances = Array.from({ length: count }, (_, n) => new Instance(o.port + n, env, log));
  const viewers: Awaited<ReturnType<typeof openViewers>> = [];
  try {
    await Promise.all(instances.map((s) => s.ready()));
    const bases = instances.map((s) => s.url);
    const seqKey = loadChannelKey(0, SEQ_CHANNEL).replace(loadMac(0), "");
    const seqOf = (readings: Record<string, number | null>) => {
      for (const [key, value] of Object.entries(readings))
        if (key.endsWith(seqKey) && typeof value === "number") return value;
      return null;
    };
    const opening = performance.now();
    viewers.push(...(await openViewers(plans(o, bases, ids), seqOf)));
    const watching = viewers.filter((v) => v.subscribedAt !== null).length;
    const missing = notWatching(viewers);
    if (missing) console.log(`  not watching: ${missing}`);
    console.log(
      `  ${watching} of ${o.viewers} watching in ${((performance.now() - opening) / 1000).toFixed(1)} s`,
    );
    const cpu0 = instances.map((s) => cpuSeconds(s.child.pid!));
    const mine0 = process.cpuUsage();
    const started = performance.now();
    const pushes = await pushAtRate(o, bases, ids.slice(0, Math.min(ids.length, o.viewers)));
    const elapsed = (performance.now() - started) / 1000;
    const mine = process.cpuUsage(mine0);
    const serverCpu = instances.map((s, n) => (cpuSeconds(s.child.pid!) - cpu0[n]!) / elapsed);
    await new Promise((r) => setTimeout(r, GRACE_MS));
    const run: LiveViewerRun = {
      engine,
      instances: count,
      viewers: o.viewers,
      watching,
      devices: ids.length,
      pushes: pushes.count,
      pushesFailed: pushes.failed,
      pushesUnexpected: pushes.unexpected,
      generatorCpu: (mine.user + mine.system) / 1e6 / elapsed,
      serverCpu,
      ...deliveryDelays(pushes.pushed, viewers),
    };
    console.log(
      `  ${run.pushes} pushes (${run.pushesFailed} failed): delay p50 ${run.p50.toFixed(0)} ms, p95 ${run.p95.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms, max ${run.max.toFixed(0)} ms, ${run.missed} of ${run.expected} missed; CPU generator ${(100 * run.generatorCpu).toFixed(0)} %, instances ${serverCpu.map((c) => `${(100 * c).toFixed(0)} %`).join(", ")}`,
    );
    return run;
  } finally {
    await closeViewers(viewers);
    await Promise.all(instances.map((s) => s.terminate()));
    log.end();
    if (!process.env["LOAD_LIVE_LOG"]) rmSync(logDir, { recursive: true, force: true });
    else console.log(`  the instances' log: ${logDir}/instances.log`);
  }
}

/** Runs the live viewers on each engine of `o` (PostgreSQL only when one answers). */
export async function liveViewersRun(o: LiveViewerOptions): Promise<LiveViewerRun[]> {
  const runs: LiveViewerRun[] = [];
  if (o.viewers <= 0) return runs;
  for (const engine of o.engines) {
    if (engine === "postgres") {
      const pg = await createDatabase("proof_v", o.databaseUrl);
      if (!pg) continue;
      try {
        runs.push(await runEngine(o, "PostgreSQL", pg.url));
      } finally {
        await pg.drop();
      }
    } else {
      const dir = mkdtempSync(join(tmpdir(), "l-live-db-"));
      try {
        runs.push(await runEngine(o, "PGlite", undefined, dir));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return runs;
}
