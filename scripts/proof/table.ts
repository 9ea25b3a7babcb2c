import type { KillResult } from "./killRun.ts";

/** A Markdown table: the header row, the rule, the rows. */
export function markdownTable(header: string[], body: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...body.map(line)].join("\n");
}

/** The kill -9 results, one row per database for payments and one for pushes. */
export function killTables(results: KillResult[]): string {
  const payments = markdownTable(
    [
      "kill -9 during payments",
      "Kills",
      "Run (s)",
      "Restart median/max (ms)",
      "Keys",
      "Requests",
      "No answer",
      "5xx",
      "Keys cut by a kill",
      "Still processing",
      "Charges",
      "Payment rows",
      "New orders",
      "Lost",
      "Without charge",
      "Doubled",
      "Wrong answer",
      "Retry ≠ first",
      "Unfinished",
    ],
    results.map((r) => {
      const p = r.payments;
      return [
        r.database,
        r.kills,
        r.seconds,
        `${r.restartMedianMs}/${r.restartMaxMs}`,
        p.keys,
        p.requests,
        p.networkErrors,
        p.serverErrors,
        p.interrupted,
        p.inProgress,
        p.charges,
        p.payments,
        p.orders,
        p.lostCharges,
        p.withoutCharge,
        p.doubled,
        p.wrongAnswers,
        p.replayMismatches,
        p.unfinished,
      ];
    }),
  );
  const pushes = markdownTable(
    [
      "kill -9 during pushes",
      "Kills",
      "Pushes",
      "Answered 2xx",
      "No answer / 5xx",
      "Refused 4xx",
      "Samples checked",
      "2xx lost",
      "Half-stored",
      "Unanswered but stored whole",
    ],
    results.map((r) => {
      const q = r.pushes;
      return [
        r.database,
        r.kills,
        q.pushes,
        q.answered2xx,
        q.noAnswer,
        q.refused,
        q.samplesChecked,
        q.lost,
        q.halfStored,
        q.storedUnanswered,
      ];
    }),
  );
  const audit = markdownTable(
    [
      "kill -9: the audit trail",
      "New payments",
      "Payment rows in the trail",
      "Payments without their row",
      "Recorded twice",
      "Rows without their payment",
      "Heads anchored",
      "Chain faults",
    ],
    results.map((r) => {
      const a = r.audit;
      return [r.database, a.payments, a.rows, a.unrecorded, a.doubled, a.phantom, a.anchors, a.chainFaults];
    }),
  );
  return `${payments}\n\n${pushes}\n\n${audit}`;
}
