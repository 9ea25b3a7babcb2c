// The kill -9 proof's audit part (issue 37: "a change without its row cannot happen"): after
// the kills, every payment made during the run has exactly one "order.payment" row naming it,
// no such row names a payment that is not there, and every chain still verifies end to end.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import type { Before } from "./paymentCheck.ts";
import type { AuditAnchor } from "../../server/core/auditChain.ts";

export interface AuditCounts {
  /** Payment rows the run made, and the audit rows that record a payment. */
  payments: number;
  rows: number;
  /** A payment with no audit row, or with more than one. */
  unrecorded: number;
  doubled: number;
  /** An audit row naming a payment that does not exist (a change recorded but not made). */
  phantom: number;
  /** Rows of any chain that do not fit it (an edit, a gap, a head that ran ahead, an anchor it no longer matches). */
  chainFaults: number;
  /** Heads the portal anchored outside the database during the run, compared with the chains. */
  anchors: number;
}

export async function checkAudit(db: Db, before: Before, anchors: AuditAnchor[] = []): Promise<AuditCounts> {
  const payments = (await rows<{ id: number }>(db, sql`select id from payments`))
    .map((r) => Number(r.id))
    .filter((id) => !before.payments.has(id));
  const recorded = await rows<{ pid: string | null }>(
    db,
    sql`select new->>'paymentId' as pid from audit_log where action = 'order.payment'`,
  );
  const rowsOf = new Map<number, number>();
  for (const r of recorded) rowsOf.set(Number(r.pid), (rowsOf.get(Number(r.pid)) ?? 0) + 1);
  const made = new Set(payments);
  const chain = await verifyAudit(db, { anchors });
  return {
    payments: payments.length,
    rows: recorded.length,
    unrecorded: payments.filter((id) => !rowsOf.has(id)).length,
    doubled: [...rowsOf.values()].filter((n) => n > 1).length,
    phantom: [...rowsOf.keys()].filter((id) => !made.has(id) && !before.payments.has(id)).length,
    chainFaults: chain.faults.length,
    anchors: anchors.length,
  };
}
