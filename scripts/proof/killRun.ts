import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { readAnchors } from "../../server/services/auditAnchors.ts";
import { checkAudit, type AuditCounts } from "./auditCheck.ts";
import { checkPayments, snapshot, type PaymentCounts } from "./paymentCheck.ts";
import { payAll } from "./payments.ts";
import { preparePayTargets } from "./paymentTargets.ts";
import { checkPushes, pushAll, pushDevices, type PushCounts } from "./pushes.ts";
import { killLoop, ServerProcess } from "./server.ts";
import type { Target } from "./target.ts";

/** Browsers paying at once (each pays, or two pay one record together). */
const BROWSERS = 8;
const DAY = 86_400;

export interface KillResult {
  database: Target["name"];
  kills: number;
  seconds: number;
  /** Start to the first 200 of /healthz, median and slowest (ms). */
  restartMedianMs: number;
  restartMaxMs: number;
  payments: PaymentCounts;
  pushes: PushCounts;
  audit: AuditCounts;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * kill -9 during payments and device pushes on one database: seeds the demo, adds payable
 * quotes, then pays and pushes while the server is SIGKILLed every 0.5–3 s and restarted on
 * the same data; after the last kill the browsers finish their keys, the server stops, and
 * the database is compared with what every client was told.
 */
export async function killRun(
  target: Target,
  kills: number,
  port: number,
  logFile: string,
): Promise<KillResult> {
  // The chains' heads anchored in a file every half second, as a portal does every 10 s: after
  // the kills the check compares the chains with every head written (no false alarm).
  const anchorFile = join(dirname(logFile), `audit-anchors-${target.name}-${port}.jsonl`);
  rmSync(anchorFile, { force: true });
  const server = new ServerProcess(
    port,
    { ...target.env, AUDIT_ANCHOR_FILE: anchorFile, AUDIT_ANCHOR_MS: "500" },
    logFile,
  );
  try {
    await server.start();
    await server.stop();
    const setup = await target.open();
    const payTargets = await preparePayTargets(setup.db, kills * 8 + 40);
    const devices = await pushDevices(setup.db);
    const before = await snapshot(setup.db);
    await setup.close();

    const began = Date.now();
    await server.start();
    let killing = true;
    const start = Math.floor(Date.now() / 1000) - 6 * DAY;
    const paying = payAll(server.url, payTargets, BROWSERS, () => killing);
    const pushing = pushAll(server.url, devices, start, () => killing);
    const done = await killLoop(server, kills, () => true);
    killing = false;
    const [payLogs, pushLogs] = await Promise.all([paying, pushing]);
    const seconds = Math.round((Date.now() - began) / 1000);
    await server.stop();

    const check = await target.open();
    try {
      return {
        database: target.name,
        kills: done,
        seconds,
        restartMedianMs: median(server.startTimes.slice(2)),
        restartMaxMs: Math.max(0, ...server.startTimes.slice(2)),
        payments: await checkPayments(check.db, before, payLogs),
        pushes: await checkPushes(check.db, devices, start, pushLogs),
        audit: await checkAudit(
          check.db,
          before,
          (await readAnchors(anchorFile, undefined, { missingOk: true })).anchors,
        ),
      };
    } finally {
      await check.close();
    }
  } finally {
    await server.stop().catch(() => {});
    server.close();
  }
}

/** The counts that must be zero for a run to pass. */
export function failures(r: KillResult): string[] {
  const p = r.payments;
  const q = r.pushes;
  const must: [string, number][] = [
    ["lost charges", p.lostCharges],
    ["payments or orders without a charge", p.withoutCharge],
    ["records charged twice", p.doubled],
    ["wrong answers", p.wrongAnswers],
    ["retries answered differently", p.replayMismatches],
    ["unfinished payment keys", p.unfinished],
    ["2xx pushes lost", q.lost],
    ["half-stored pushes", q.halfStored],
    ["pushes refused with 4xx", q.refused],
    ["payments without their audit row", r.audit.unrecorded],
    ["payments with two audit rows", r.audit.doubled],
    ["audit rows of a payment that is not there", r.audit.phantom],
    ["audit rows that do not fit their chain", r.audit.chainFaults],
  ];
  const problems = must.filter(([, n]) => n > 0).map(([what, n]) => `${r.database}: ${n} ${what}`);
  if (r.audit.payments > 0 && r.audit.anchors === 0)
    problems.push(`${r.database}: no chain head was anchored outside the database during the run`);
  return problems;
}
