// The alert scheduler's own moves in the audit trail, as "system": a repeated notice and an
// escalation to the next tier are decided by no person, yet an audit asks who was told when.
// Written in the transaction of the move (docs/decisions.md, "What the audit trail records of
// reports"). Alarms opened or cleared by a pushed reading are data: the push path writes none.
import type { Db } from "../db/client.ts";
import { appendAudit } from "../data/audit.ts";
import type { AlarmRow } from "../data/alerts.ts";
import { EntityType } from "../../src/domain/enums.ts";

export const ALERT_SCHEDULER = { kind: "system", label: "alert scheduler" } as const;

/** Records a repeat (notices n → n+1) or an escalation (tier n → n+1) of an alarm. */
export async function recordSchedulerMove(
  tx: Db,
  before: AlarmRow,
  after: AlarmRow,
  now: Date,
  key?: string,
) {
  const escalated = after.escalationLevel !== before.escalationLevel;
  const field = escalated ? "escalationLevel" : "notices";
  await appendAudit(
    tx,
    {
      subscriptionId: after.subscriptionId,
      actor: ALERT_SCHEDULER,
      action: escalated ? "alert.escalate" : "alert.repeat",
      entityType: EntityType.ALERT,
      entityId: after.id,
      deviceId: after.deviceId,
      // The rule's name names the alarm in the viewer; unchanged, it is no change.
      before: { name: before.ruleName, [field]: before[field] },
      after: { name: after.ruleName, [field]: after[field] },
      always: true,
    },
    now,
    key,
  );
}
