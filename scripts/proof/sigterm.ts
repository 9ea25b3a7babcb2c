import { createWriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { checkPayments, snapshot, type PaymentCounts } from "./paymentCheck.ts";
import { payAll } from "./payments.ts";
import { preparePayTargets } from "./paymentTargets.ts";
import { Instance, type Exit } from "./instance.ts";
import { backSince, watchLive, type LiveClient } from "./liveClients.ts";
import { checkPushes, pushDevices, type PushCounts } from "./pushes.ts";
import { drive, readPaths } from "./traffic.ts";
import { tally, type Tally } from "./tally.ts";
import type { Target } from "./target.ts";

/** The server's own limit (server/index.ts): it exits 1 if open requests take longer. */
export const DRAIN_LIMIT_MS = 10_000;
const LIVE_CLIENTS = 4;
const LIVE_BACK_MS = 60_000;
const READERS = 8;
const PAYING_BROWSERS = 2;
const DAY = 86_400;

/** One SIGTERM: when it was sent, how the old process ended, when the new one answered. */
interface Round {
  sigterm: number;
  exit: Exit;
  ready: number;
}

export interface SigtermResult {
  database: Target["name"];
  rounds: number;
  seconds: number;
  /** Slowest SIGTERM-to-exit (ms) and every exit code (the last stop's included). */
  drainMaxMs: number;
  exitCodes: (number | null)[];
  requests: Tally;
  /** Requests under way when a SIGTERM came, and how many of them got their whole answer. */
  inFlight: number;
  inFlightAnswered: number;
  /** Of those, dropped before the server read them (no byte of answer; see `dropped` in tally.ts). */
  inFlightDropped: number;
  pushes: PushCounts;
  payments: PaymentCounts;
  live: LiveCounts;
}

export interface LiveCounts {
  /** Sockets open at a SIGTERM, and how many the old process closed with 1001 (going away). */
  open: number;
  goingAway: number;
  /** Clients that got a fresh state from the new process, then a push's state, after each SIGTERM. */
  back: number;
  expected: number;
  /** SIGTERM to the new process's first state, slowest (ms): the page's backoff sets most of it. */
  backMaxMs: number;
  refused: number;
}

/**
 * SIGTERM under load on one database: devices push, readers fetch public pages, two browsers
 * pay, four public device pages watch live; the server gets SIGTERM `rounds` times mid-load
 * and a new one starts on the same data (same port) each time. Then the database is
 * compared with what every client was told.
 */
export async function sigtermRun(
  target: Target,
  rounds: number,
  port: number,
  logFile: string,
  loadMs: number,
): Promise<SigtermResult> {
  const log = createWriteStream(logFile, { flags: "a" });
  let instance = new Instance(port, target.env, log);
  try {
    await instance.ready();
    await instance.terminate();
    const setup = await target.open();
    const payTargets = await preparePayTargets(setup.db, 40 * rounds);
    const devices = await pushDevices(setup.db);
    const reads = await readPaths(setup.db);
    const before = await snapshot(setup.db);
    await setup.close();

    const began = Date.now();
    instance = new Instance(port, target.env, log);
    await instance.ready();
    let running = true;
    const go = () => running;
    const start = Math.floor(Date.now() / 1000) - 6 * DAY;
    const traffic = drive(instance.url, devices, start, reads.paths, READERS, go);
    const paying = payAll(instance.url, payTargets, PAYING_BROWSERS, go);
    const watching = reads.hashes.slice(0, LIVE_CLIENTS).map((h) => watchLive(instance.url, h, go));
    const clients = watching.map((w) => w.client);
    const done: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      await sleep(loadMs);
      const sigterm = Date.now();
      const exit = await instance.terminate();
      instance = new Instance(port, target.env, log);
      await instance.ready();
      done.push({ sigterm, exit, ready: Date.now() });
      await sleep(3000);
      await liveBack(clients, exit.at);
    }
    running = false;
    const [t, payLogs, live] = await Promise.all([traffic, paying, Promise.all(watching.map((w) => w.done))]);
    const seconds = Math.round((Date.now() - began) / 1000);
    const last = await instance.terminate();

    const check = await target.open();
    try {
      const inFlight = t.samples.filter((s) => done.some((r) => s.began < r.sigterm && s.ended > r.sigterm));
      return {
        database: target.name,
        rounds: done.length,
        seconds,
        drainMaxMs: Math.max(...done.map((r) => r.exit.at - r.sigterm)),
        exitCodes: [...done.map((r) => r.exit.code), last.code],
        requests: tally(t.samples),
        inFlight: inFlight.length,
        inFlightAnswered: inFlight.filter((s) => s.failure === null && s.status > 0).length,
        inFlightDropped: inFlight.filter((s) => s.failure === "dropped").length,
        pushes: await checkPushes(check.db, devices, start, t.pushes),
        payments: await checkPayments(check.db, before, payLogs),
        live: liveCounts(live, done),
      };
    } finally {
      await check.close();
    }
  } finally {
    await instance.kill();
    log.end();
  }
}

/**
 * Waits (60 s at most) until every live client is back on the new process: the page's backoff
 * can reach 30 s while a PGlite process starts, and the next SIGTERM should find them connected.
 */
async function liveBack(clients: LiveClient[], since: number) {
  const until = Date.now() + LIVE_BACK_MS;
  while (Date.now() < until && clients.some((c) => !c.refused && !backSince(c, since))) await sleep(250);
}

/** Reads the live clients' sockets against the rounds' times. */
function liveCounts(clients: LiveClient[], rounds: Round[]): LiveCounts {
  const counts: LiveCounts = { open: 0, goingAway: 0, back: 0, expected: 0, backMaxMs: 0, refused: 0 };
  for (const client of clients) {
    if (client.refused) counts.refused++;
    for (const round of rounds) {
      const cut = client.connections.filter(
        (c) => c.opened < round.sigterm && (c.closed === null || c.closed >= round.sigterm),
      );
      counts.open += cut.length;
      counts.goingAway += cut.filter((c) => c.code === 1001 && c.closed! <= round.exit.at).length;
      counts.expected++;
      const back = backSince(client, round.exit.at);
      if (!back) continue;
      counts.back++;
      counts.backMaxMs = Math.max(counts.backMaxMs, back.at - round.sigterm);
    }
  }
  return counts;
}

/** What must hold for a SIGTERM run to pass. */
export function sigtermFailures(r: SigtermResult): string[] {
  const q = r.requests;
  const p = r.payments;
  const live = r.live;
  const must: [string, boolean][] = [
    [`${q.truncated} answers cut off after their status`, q.truncated > 0],
    [`${q.serverErrors} 5xx answers (other than 503 with Retry-After)`, q.serverErrors > 0],
    [`${q.timeouts} requests without an answer in 30 s`, q.timeouts > 0],
    [`${q.other} requests failed in an unexpected way (${q.otherExample})`, q.other > 0],
    [
      `${r.inFlight - r.inFlightAnswered - r.inFlightDropped} requests under way at SIGTERM cut off or failed`,
      r.inFlightAnswered + r.inFlightDropped < r.inFlight,
    ],
    [`${r.pushes.lost} pushes answered 2xx are missing`, r.pushes.lost > 0],
    [`${r.pushes.halfStored} pushes half-stored`, r.pushes.halfStored > 0],
    [
      `${r.pushes.storedUnanswered} pushes stored but never answered (accepted, then cut)`,
      r.pushes.storedUnanswered > 0,
    ],
    [`${p.serverErrors} payment requests answered 5xx`, p.serverErrors > 0],
    [
      `payments: ${p.lostCharges} lost, ${p.withoutCharge} without charge, ${p.doubled} doubled, ${p.wrongAnswers} wrong, ${p.replayMismatches} retries answered differently, ${p.unfinished} unfinished`,
      p.lostCharges + p.withoutCharge + p.doubled + p.wrongAnswers + p.replayMismatches + p.unfinished > 0,
    ],
    [`exit codes ${r.exitCodes.join(", ")} (0 expected)`, r.exitCodes.some((c) => c !== 0)],
    [`a drain took ${r.drainMaxMs} ms (limit ${DRAIN_LIMIT_MS})`, r.drainMaxMs >= DRAIN_LIMIT_MS],
    [
      `${live.open - live.goingAway} of ${live.open} live sockets not closed with 1001`,
      live.goingAway < live.open,
    ],
    [
      `${live.expected - live.back} of ${live.expected} live clients did not come back`,
      live.back < live.expected,
    ],
    [`${live.refused} live clients refused`, live.refused > 0],
  ];
  return must.filter(([, failed]) => failed).map(([what]) => `${r.database} SIGTERM: ${what}`);
}
