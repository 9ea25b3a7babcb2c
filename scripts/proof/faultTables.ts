import type { OutageResult } from "./outage.ts";
import type { SigtermResult } from "./sigterm.ts";
import { markdownTable } from "./table.ts";

/** The SIGTERM results, one row per database. */
export function sigtermTable(results: SigtermResult[]): string {
  return markdownTable(
    [
      "SIGTERM under load",
      "SIGTERMs",
      "Run (s)",
      "Drain max (ms)",
      "Exit codes",
      "Requests",
      "Whole answers",
      "Refused (no listener)",
      "Dropped before an answer",
      "Cut off / 5xx / timed out",
      "Under way at SIGTERM: answered / dropped unread",
      "Pushes 2xx / lost / stored unanswered",
      "Charges / payment rows / 5xx",
      "Live sockets closed 1001",
      "Live clients back (slowest, ms)",
    ],
    results.map((r) => {
      const q = r.requests;
      return [
        r.database,
        r.rounds,
        r.seconds,
        r.drainMaxMs,
        [...new Set(r.exitCodes)].join(","),
        q.total,
        q.answered + q.unavailable,
        q.refused,
        q.dropped,
        `${q.truncated} / ${q.serverErrors} / ${q.timeouts}`,
        `${r.inFlight}: ${r.inFlightAnswered} / ${r.inFlightDropped}`,
        `${r.pushes.answered2xx} / ${r.pushes.lost} / ${r.pushes.storedUnanswered}`,
        `${r.payments.charges} / ${r.payments.payments} / ${r.payments.serverErrors}`,
        `${r.live.goingAway} of ${r.live.open}`,
        `${r.live.back} of ${r.live.expected} (${r.live.backMaxMs})`,
      ];
    }),
  );
}

/** The database outage results. */
export function outageTable(results: OutageResult[]): string {
  return markdownTable(
    [
      "PostgreSQL away",
      "Outage (s)",
      "Requests before / during / after",
      "During: answers by status",
      "During p99 / max (ms)",
      "500s",
      "Process up",
      "First 2xx push / order after return (ms)",
      "Failures 10 s after return",
      "Pushes 2xx / lost",
    ],
    results.map((r) => [
      "PostgreSQL",
      r.outageSeconds,
      `${r.before.total} / ${r.during.total} / ${r.afterTotal}`,
      Object.entries(r.duringStatuses)
        .map(([k, n]) => `${k}: ${n}`)
        .join(", "),
      `${r.duringP99Ms} / ${r.duringMaxMs}`,
      r.during.serverErrors,
      r.stayedUp ? "yes" : "no",
      `${r.recoveryPushMs ?? "none"} / ${r.recoveryReadMs ?? "none"}`,
      r.lateFailures,
      `${r.pushes.answered2xx} / ${r.pushes.lost}`,
    ]),
  );
}
