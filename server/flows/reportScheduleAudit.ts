// The report scheduler's own moves in the audit trail, as "system" (docs/decisions.md, "What the
// audit trail records of reports"): one row per run once its last delivery is settled (to how
// many addresses, which files, the period) and one per delivery given up after its retries;
// never one per attempt. Each is written in the transaction that settles the delivery.
import { inTransaction, type Db } from "../db/client.ts";
import { appendAudit } from "../data/audit.ts";
import {
  lockSchedule,
  runStates,
  settleDelivery,
  type DeliveryRow,
  type ScheduleRow,
} from "../data/reportDeliveries.ts";

export const SCHEDULER = { kind: "system", label: "report scheduler" } as const;

/** What the settling of one delivery needs to know besides its outcome. */
export interface Settled {
  delivery: DeliveryRow;
  schedule: ScheduleRow;
  /** The period's words ("Yesterday, Nov 28, 2026"). */
  period: string;
  /** The files the message carried, when it was built. */
  files?: string[] | undefined;
}

type Outcome = { sentAt: Date } | { error: string; retryAt: Date | null };

const formatsOf = (s: ScheduleRow, files: string[] | undefined) =>
  files
    ? [...new Set(files.map((f) => f.slice(f.lastIndexOf(".") + 1).toLowerCase()))].sort()
    : s.format === "both"
      ? ["csv", "pdf"]
      : [s.format];

/**
 * Settles a delivery and writes the scheduler's rows in the same transaction, under the
 * schedule's row lock (taken first, as the routes and the unsubscribe take it).
 */
export function settleRecorded(
  deps: { db: Db; auditKey?: string | undefined },
  settled: Settled,
  outcome: Outcome,
  now: Date,
) {
  const { delivery: d, schedule: s } = settled;
  return inTransaction(deps.db, async (tx) => {
    const kept = await lockSchedule(tx, s.id);
    await settleDelivery(tx, d.id, outcome);
    if (!kept) return;
    const row = { subscriptionId: s.subscriptionId, actor: SCHEDULER, entityId: s.id, always: true };
    if ("error" in outcome && outcome.retryAt === null)
      await appendAudit(
        tx,
        {
          ...row,
          action: "report.schedule.failed",
          after: {
            recipient: d.recipient,
            period: settled.period,
            attempts: d.attempts,
            error: outcome.error.slice(0, 200),
          },
        },
        now,
        deps.auditKey,
      );
    const states = await runStates(tx, s.id, d.runAt);
    if ((states["queued"] ?? 0) > 0 || !states["sent"]) return;
    await appendAudit(
      tx,
      {
        ...row,
        action: "report.schedule.sent",
        after: {
          addresses: states["sent"],
          failed: states["failed"] ?? 0,
          formats: formatsOf(s, settled.files),
          period: settled.period,
        },
      },
      now,
      deps.auditKey,
    );
  });
}
