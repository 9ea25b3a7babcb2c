// What the audit chain costs the paths it writes on (issue 37: "within 5 %"): the same server
// and database with the trail on and with AUDIT_TRAIL=0, two processes taking turns in short
// alternating batches so that a machine growing busier, or data growing, weighs on both sides
// alike. Two paths:
//   payments  a guest pays a quote by card (the payment and its audit row in one transaction);
//   settings  signed-in people change their temperature scale (a settings row and its audit row).
// Each round sends the same number of requests from the same number of clients; the figure is
// the median and p95 latency of each side over all its rounds, and on/off of the medians.
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { rows } from "../../server/db/client.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { addLoadSessions, addStormUsers, loadSessionToken } from "../load/fixtures.ts";
import { PAYING_CARD, payForm } from "./payments.ts";
import { preparePayTargets, type PayTarget } from "./paymentTargets.ts";
import { randomAddress, send } from "./http.ts";
import { ServerProcess } from "./server.ts";
import { postgresCpuMs, processCpuMs } from "./cpuTicks.ts";
import type { Target } from "./target.ts";

/** Clients at once on each path: the payments of a busy shop, a team changing settings. */
const CLIENTS = 4;
/** Requests each fresh process answers before the measured ones. */
const WARM_UP = 8;
/** A pause after each batch: longer than the sealer's period (AUDIT_SEAL_MS, 200 ms). */
const SEAL_SETTLE_MS = 400;
/** Each path's goal: the trail adds at most 5 % to the median. */
export const AUDIT_COST_GOAL = 1.05;

export interface Side {
  requests: number;
  failed: number;
  medianMs: number;
  p95Ms: number;
  /** CPU a request cost the portal's process and PostgreSQL's (all its processes), in ms. */
  cpuMs: Cpu;
}

/** CPU in milliseconds: the portal's process, and every PostgreSQL process of the machine. */
export interface Cpu {
  portal: number;
  postgres: number;
}

export interface PathCost {
  path: "payments" | "settings";
  on: Side;
  off: Side;
  /** Median with the trail over median without it. */
  ratio: number;
  /**
   * The median of the rounds' own ratios (each round's median on over its median off): a
   * round's two batches run moments apart, so a machine whose speed drifts (a shared host) moves
   * both; the figure to read beside `ratio` when runs disagree.
   */
  roundRatio: number;
}

export interface AuditCostResult {
  database: Target["name"];
  rounds: number;
  paths: PathCost[];
  /** Audit rows written by the rounds with the trail on, and by those with it off (must be 0). */
  rowsOn: number;
  rowsOff: number;
  /** Rows left unchained once a portal stopped (it seals at shutdown), and chain faults after the run. */
  unsealed: number;
  chainFaults: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
};

/** Adds what the portal and PostgreSQL used between two readings. */
function addCpu(sum: Cpu, from: Cpu, to: Cpu) {
  sum.portal += to.portal - from.portal;
  sum.postgres += to.postgres - from.postgres;
}

/** `count` requests from CLIENTS clients at once; each request's time, and how many failed. */
async function timed(count: number, one: (i: number) => Promise<boolean>) {
  const times: number[] = [];
  let failed = 0;
  let next = 0;
  const client = async () => {
    while (next < count) {
      const i = next++;
      const began = performance.now();
      if (!(await one(i))) failed++;
      times.push(performance.now() - began);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { times, failed };
}

/** The trail's rows, and those not chained (a stopped portal seals what it wrote). */
const auditRows = async (t: Target) => {
  const db = await t.open();
  try {
    const [r] = await rows<{ n: string | number; unsealed: string | number }>(
      db.db,
      sql`select count(*) as n, count(*) filter (where seq is null) as unsealed from audit_log`,
    );
    return { n: Number(r?.n ?? 0), unsealed: Number(r?.unsealed ?? 0) };
  } finally {
    await db.close();
  }
};

/**
 * `rounds` rounds on one database, each one batch with the trail on and one with it off (the
 * order turning each round), `payments` card payments and `settings` settings changes per batch.
 * Both portals run side by side for the whole run on the same database, warmed up once, and
 * take turns: only one is asked anything at a time. Short alternating batches without restarts
 * leave the start of a process (its first compilations, where its memory lands) out of the
 * figure, which on this machine moved a four-round median by 10 % either way.
 */
export async function auditCostRun(
  target: Target,
  port: number,
  logFile: string,
  opts: { rounds: number; payments: number; settings: number },
): Promise<AuditCostResult> {
  const servers = {
    // As a portal runs: its chains' heads anchored in a file too (proofs keep none by default).
    on: new ServerProcess(
      port,
      { ...target.env, AUDIT_ANCHOR_FILE: join(dirname(logFile), "audit-anchors.jsonl") },
      logFile,
    ),
    off: new ServerProcess(port + 10, { ...target.env, AUDIT_TRAIL: "0" }, logFile),
  };
  // The first start seeds the demo; the people and their sessions are added beside it.
  await servers.on.start();
  await servers.on.stop();
  const setup = await target.open();
  await addStormUsers(setup.db, CLIENTS);
  await addLoadSessions(setup.db, CLIENTS);
  // Every batch's quotes at once: WARM_UP for each side, then `payments` per side and round.
  const perSide = WARM_UP + opts.rounds * opts.payments;
  const quotes = (await preparePayTargets(setup.db, 2 * perSide, 800_001)).filter((p) =>
    p.subject.startsWith("quote:"),
  );
  await setup.close();
  const pay = { on: quotes.slice(0, perSide), off: quotes.slice(perSide) };

  const times = {
    payments: { on: [] as number[], off: [] as number[] },
    settings: { on: [] as number[], off: [] as number[] },
  };
  const failed = { payments: { on: 0, off: 0 }, settings: { on: 0, off: 0 } };
  const added = { on: 0, off: 0 };
  const zero = (): Cpu => ({ portal: 0, postgres: 0 });
  const cpu = {
    payments: { on: zero(), off: zero() },
    settings: { on: zero(), off: zero() },
  };
  const roundRatios = { payments: [] as number[], settings: [] as number[] };
  let unsealed = 0;
  try {
    await Promise.all([servers.on.start(), servers.off.start()]);
    // A fresh process compiles its paths on the first requests: those are not measured.
    for (const side of ["on", "off"] as const) {
      const url = servers[side].url;
      await timed(WARM_UP, (i) => payOnce(url, pay[side][i]!));
      await timed(WARM_UP, (i) => changeScale(url, i));
    }
    for (let round = 0; round < opts.rounds; round++) {
      const order: ("on" | "off")[] = round % 2 ? ["off", "on"] : ["on", "off"];
      const medians = { payments: { on: 0, off: 0 }, settings: { on: 0, off: 0 } };
      for (const side of order) {
        const url = servers[side].url;
        const first = WARM_UP + round * opts.payments;
        const before = (await auditRows(target)).n;
        const pid = servers[side].pid ?? 0;
        const cpuAt = (): Cpu => ({ portal: processCpuMs(pid), postgres: postgresCpuMs() });
        const c0 = cpuAt();
        const paid = await timed(opts.payments, (i) => payOnce(url, pay[side][first + i]!));
        const c1 = cpuAt();
        const set = await timed(opts.settings, (i) => changeScale(url, i));
        const c2 = cpuAt();
        addCpu(cpu.payments[side], c0, c1);
        addCpu(cpu.settings[side], c1, c2);
        added[side] += (await auditRows(target)).n - before;
        times.payments[side].push(...paid.times);
        times.settings[side].push(...set.times);
        medians.payments[side] = quantile(paid.times, 0.5);
        medians.settings[side] = quantile(set.times, 0.5);
        failed.payments[side] += paid.failed;
        failed.settings[side] += set.failed;
        // The other side's turn starts once this side's sealer has chained what it wrote.
        await sleep(SEAL_SETTLE_MS);
      }
      for (const path of ["payments", "settings"] as const)
        roundRatios[path].push(medians[path].on / medians[path].off);
    }
  } finally {
    await Promise.all([servers.on.stop(), servers.off.stop()]);
    servers.on.close();
    servers.off.close();
  }
  unsealed = (await auditRows(target)).unsealed;
  const rowsOn = added.on;
  const rowsOff = added.off;
  const sideOf = (xs: number[], n: number, used: Cpu): Side => ({
    requests: xs.length,
    failed: n,
    medianMs: Math.round(quantile(xs, 0.5) * 10) / 10,
    p95Ms: Math.round(quantile(xs, 0.95) * 10) / 10,
    cpuMs: {
      portal: xs.length ? used.portal / xs.length : 0,
      postgres: xs.length ? used.postgres / xs.length : 0,
    },
  });
  const paths = (["payments", "settings"] as const).map((path): PathCost => {
    const on = sideOf(times[path].on, failed[path].on, cpu[path].on);
    const offSide = sideOf(times[path].off, failed[path].off, cpu[path].off);
    return {
      path,
      on,
      off: offSide,
      ratio: offSide.medianMs ? on.medianMs / offSide.medianMs : 0,
      roundRatio: quantile(roundRatios[path], 0.5),
    };
  });
  const db = await target.open();
  const chain = await verifyAudit(db.db).finally(() => db.close());
  return {
    database: target.name,
    rounds: opts.rounds,
    paths,
    rowsOn,
    rowsOff,
    unsealed,
    chainFaults: chain.faults.length,
  };
}

/** One guest card payment of a quote, from an address of its own (the card-testing limits). */
async function payOnce(base: string, target: PayTarget) {
  const key = randomBytes(18).toString("base64url");
  const res = await send(`${base}${target.path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": randomAddress() },
    body: payForm(target, PAYING_CARD, key),
  });
  return res.status >= 200 && res.status < 300;
}

/** Person i % CLIENTS sets the scale the i-th request names: every request changes it. */
async function changeScale(base: string, i: number) {
  const person = i % CLIENTS;
  const res = await send(`${base}/api/v1/session/settings`, {
    method: "PATCH",
    headers: { "content-type": "application/json", cookie: `${SESSION_COOKIE}=${loadSessionToken(person)}` },
    body: JSON.stringify({ temperatureScale: Math.floor(i / CLIENTS) % 2 ? "C" : "F" }),
  });
  return res.status === 200;
}
