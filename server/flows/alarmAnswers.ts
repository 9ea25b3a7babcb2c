// Alarms as the API answers them (in the reader's scale) and their acknowledgement, which is
// the same move whether it comes from the signed-in app or from an emailed link.
import { eq } from "drizzle-orm";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { inTransaction, type Db } from "../db/client.ts";
import { alarms, alertRules } from "../db/schema/index.ts";
import { alarmDeliveries, alarmHistory, alarmView, type AlarmView } from "../data/alarms.ts";
import { moveAlarm } from "./alarmMoves.ts";
import { valueText } from "../../src/domain/alerts.ts";
import { EntityType } from "../../src/domain/enums.ts";
import {
  ALREADY_ACKNOWLEDGED,
  ALREADY_CLEARED,
  NOT_YET_TRIGGERED,
  type Alarm,
  type Delivery,
} from "../../src/api/alarms.ts";
import type { TemperatureScale } from "../../src/domain/temperature.ts";

const epoch = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function shown(a: AlarmView, scale: TemperatureScale): { valueText: string; limitText: string | null } {
  if (a.kind === "offline") return { valueText: "No readings", limitText: null };
  if (a.kind === "stale") return { valueText: "Not reporting", limitText: null };
  if (a.kind === "battery") return { valueText: `${a.value ?? "?"}%`, limitText: "30%" };
  return {
    valueText: valueText(a.channelKind, a.units, a.value, scale),
    limitText: a.limit === null ? null : valueText(a.channelKind, a.units, a.limit, scale),
  };
}

export function alarmAnswer(a: AlarmView, scale: TemperatureScale): Alarm {
  return {
    id: a.id,
    ruleId: a.ruleId,
    ruleName: a.ruleName,
    kind: a.kind,
    severity: a.severity as Alarm["severity"],
    state: a.state as Alarm["state"],
    deviceId: a.deviceId,
    deviceName: a.deviceName,
    channelKey: a.channelKey,
    channelName: a.channelName,
    ...shown(a, scale),
    since: epoch(a.since)!,
    triggeredAt: epoch(a.triggeredAt),
    acknowledgedAt: epoch(a.acknowledgedAt),
    acknowledgedBy: a.acknowledgedBy,
    clearedAt: epoch(a.clearedAt),
  };
}

/** One alarm with its history and delivery log. */
export async function alarmDetail(db: Db, a: AlarmView, scale: TemperatureScale) {
  const history = (await alarmHistory(db, a.id)).map((e) => ({
    kind: e.kind,
    at: epoch(e.at)!,
    valueText: e.value === null ? null : shown({ ...a, value: e.value }, scale).valueText,
    by: e.byUser,
    note: e.note,
    entityType: e.kind === "acknowledged" ? EntityType.ALERT_COMMENT : EntityType.ALERT,
  }));
  const deliveries: Delivery[] = (await alarmDeliveries(db, a.id)).map((d) => ({
    id: d.id,
    event: d.event,
    channel: d.channel as Delivery["channel"],
    recipient: d.recipient,
    state: d.state as Delivery["state"],
    attempts: d.log.map((l) => ({ at: epoch(l.at)!, ok: l.ok, detail: l.detail })),
    sentAt: epoch(d.sentAt),
    nextAttemptAt: d.state === "queued" ? epoch(d.nextAttemptAt) : null,
  }));
  return { alarm: alarmAnswer(a, scale), history, deliveries };
}

/**
 * Acknowledges a triggered alarm with its note (the ALERT_COMMENT): repeats and escalation stop,
 * webhooks hear of it. The alarm's row is locked, so two people acknowledging at once get one
 * acknowledgement and one "already acknowledged".
 */
export async function acknowledge(db: Db, alarmId: number, by: string, note: string, now: Date) {
  await inTransaction(db, async (tx) => {
    const [alarm] = await tx.select().from(alarms).where(eq(alarms.id, alarmId)).for("update");
    if (!alarm) throw new ApiError(404, NOT_FOUND);
    if (alarm.state === "cleared") throw new ApiError(409, ALREADY_CLEARED);
    if (alarm.state === "acknowledged") throw new ApiError(409, ALREADY_ACKNOWLEDGED);
    if (alarm.state === "pending") throw new ApiError(409, NOT_YET_TRIGGERED);
    const [rule] = alarm.ruleId
      ? await tx.select().from(alertRules).where(eq(alertRules.id, alarm.ruleId))
      : [];
    await moveAlarm(tx, alarm, rule ?? null, "acknowledged", { at: now, by, note }, now);
  });
  return (await alarmView(db, alarmId))!;
}
