// How an alarm moves (pending → triggered → acknowledged → cleared) and who hears of it: every
// move writes its history row and queues one delivery per recipient in the same transaction,
// so a move without its messages (or messages without their move) cannot be committed.
import { and, eq, inArray, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { alarmEvents, alarms, alertDeliveries, devices, users } from "../db/schema/index.ts";
import type { AlarmRow, RuleRow } from "../data/alerts.ts";
import { notBefore, type Severity } from "../../src/domain/alerts.ts";
import { queueVisitorNotices } from "./visitorNotices.ts";

export type Move = "triggered" | "repeated" | "escalated" | "acknowledged" | "cleared";
export interface Subject {
  kind: "channel" | "device" | "sensor";
  id: number;
  deviceId: number;
  channelId: number | null;
}

/**
 * Opens an alarm for a rule and subject, pending (or triggered at once when no delay is asked).
 * Another instance may have opened it a moment before: the partial unique index keeps one,
 * and the loser gets null and does nothing.
 */
export async function openAlarm(
  tx: Db,
  rule: RuleRow,
  subject: Subject,
  reading: { value: number | null; limit: number | null; at: Date },
  now: Date,
): Promise<AlarmRow | null> {
  const immediate = rule.delaySeconds === 0 && rule.delayReadings <= 1;
  const [row] = await rows<{ id: number }>(
    tx,
    sql`insert into alarms (subscription_id, rule_id, rule_name, kind, severity, subject_kind, subject_id,
          device_id, channel_id, state, value, limit_value, since, breaches, due_at)
        values (${rule.subscriptionId}, ${rule.id}, ${rule.name}, ${rule.kind}, ${rule.severity}, ${subject.kind},
          ${subject.id}, ${subject.deviceId}, ${subject.channelId}, 'pending', ${reading.value}, ${reading.limit},
          ${reading.at}, 1, ${immediate ? null : new Date(reading.at.getTime() + rule.delaySeconds * 1000)})
        on conflict (rule_id, subject_kind, subject_id) where state <> 'cleared' do nothing
        returning id`,
  );
  if (!row) return null;
  const [alarm] = await tx.select().from(alarms).where(eq(alarms.id, row.id));
  await tx
    .insert(alarmEvents)
    .values({ alarmId: row.id, kind: "pending", at: reading.at, value: reading.value });
  if (!immediate) return alarm!;
  return moveAlarm(tx, alarm!, rule, "triggered", { at: reading.at, value: reading.value }, now);
}

/** A pending alarm whose condition ended before its delay: it never was an alarm, so it goes. */
export async function dropPending(tx: Db, alarm: AlarmRow) {
  await tx.delete(alarms).where(and(eq(alarms.id, alarm.id), eq(alarms.state, "pending")));
}

/**
 * Moves an alarm, writes the move to its history and queues its notices. `rule` is null for an
 * alarm whose rule was deleted (then nobody is told). Returns the alarm as it now is.
 */
export async function moveAlarm(
  tx: Db,
  alarm: AlarmRow,
  rule: RuleRow | null,
  move: Move,
  what: { at: Date; value?: number | null; by?: string | null; note?: string | null; silent?: boolean },
  now: Date,
): Promise<AlarmRow> {
  const patch: Partial<AlarmRow> = {};
  if (move === "triggered") Object.assign(patch, { state: "triggered", triggeredAt: what.at, notices: 1 });
  if (move === "repeated") patch.notices = alarm.notices + 1;
  if (move === "escalated") patch.escalationLevel = alarm.escalationLevel + 1;
  if (move === "acknowledged")
    Object.assign(patch, { state: "acknowledged", acknowledgedAt: what.at, acknowledgedBy: what.by ?? null });
  if (move === "cleared") Object.assign(patch, { state: "cleared", clearedAt: what.at, dueAt: null });
  if (what.value !== undefined && what.value !== null) patch.value = what.value;
  const next = { ...alarm, ...patch } as AlarmRow;
  if (move !== "cleared") next.dueAt = nextDue(next, rule, now);
  patch.dueAt = next.dueAt;
  await tx.update(alarms).set(patch).where(eq(alarms.id, alarm.id));
  const [event] = await tx
    .insert(alarmEvents)
    .values({
      alarmId: alarm.id,
      kind: move,
      at: what.at,
      value: what.value ?? null,
      byUser: what.by ?? null,
      note: what.note ?? null,
    })
    .returning({ id: alarmEvents.id });
  if (rule && !what.silent) await queueNotices(tx, next, rule, move, event!.id, now);
  if (rule && !what.silent) await queueVisitorNotices(tx, next, move, event!.id, now);
  return next;
}

/**
 * The alarm's next timer while triggered: the next repeat to the rule's recipients, or the next
 * escalation tier, whichever comes first; none once acknowledged.
 */
export function nextDue(alarm: AlarmRow, rule: RuleRow | null, now: Date): Date | null {
  if (!rule || alarm.state !== "triggered" || !alarm.triggeredAt)
    return alarm.state === "pending" ? alarm.dueAt : null;
  const times: number[] = [];
  if (rule.repeatMinutes > 0) times.push(now.getTime() + rule.repeatMinutes * 60_000);
  const tier = rule.escalation[alarm.escalationLevel];
  if (tier) times.push(Math.max(now.getTime(), alarm.triggeredAt.getTime() + tier.afterMinutes * 60_000));
  return times.length ? new Date(Math.min(...times)) : null;
}

interface Recipient {
  channel: "email" | "webhook";
  recipient: string;
  userId: number | null;
}

/** Who hears of a move: emails for triggered, repeats, escalation and clearing; webhooks for every move but repeats. */
async function recipientsOf(tx: Db, alarm: AlarmRow, rule: RuleRow, move: Move): Promise<Recipient[]> {
  const mail: { userIds: number[]; emails: string[] } = { userIds: [], emails: [] };
  const add = (r: { userIds: number[]; emails: string[] }) => {
    mail.userIds.push(...r.userIds);
    mail.emails.push(...r.emails);
  };
  if (move === "triggered" || move === "repeated" || move === "cleared") add(rule.notify);
  if (move === "escalated") {
    const tier = rule.escalation[alarm.escalationLevel - 1];
    if (tier) add(tier);
  }
  if (move === "cleared") rule.escalation.slice(0, alarm.escalationLevel).forEach(add);
  const members = mail.userIds.length
    ? await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          and(
            inArray(users.id, [...new Set(mail.userIds)]),
            sql`exists (select 1 from user_assignments ua where ua.user_id = ${users.id} and ua.subscription_id = ${rule.subscriptionId})`,
          ),
        )
    : [];
  const list: Recipient[] = members.map((m) => ({
    channel: "email",
    recipient: m.email.toLowerCase(),
    userId: m.id,
  }));
  for (const e of mail.emails)
    if (!list.some((l) => l.recipient === e)) list.push({ channel: "email", recipient: e, userId: null });
  if (move !== "repeated")
    for (const url of rule.notify.webhookUrls)
      list.push({ channel: "webhook", recipient: url, userId: null });
  return list;
}

/**
 * One delivery per recipient of the move, unique per event and recipient. A device in
 * maintenance hears nothing; quiet hours hold what is not critical until they end.
 */
async function queueNotices(tx: Db, alarm: AlarmRow, rule: RuleRow, move: Move, eventId: number, now: Date) {
  const [device] = await tx
    .select({ mutedUntil: devices.alertsMutedUntil })
    .from(devices)
    .where(eq(devices.id, alarm.deviceId));
  if (device?.mutedUntil && device.mutedUntil > now) return;
  const list = await recipientsOf(tx, alarm, rule, move);
  if (!list.length) return;
  const at = notBefore(now, rule.quietHours, rule.severity as Severity);
  await tx
    .insert(alertDeliveries)
    .values(
      list.map((r) => ({
        subscriptionId: alarm.subscriptionId,
        alarmId: alarm.id,
        eventId,
        channel: r.channel,
        recipient: r.recipient,
        userId: r.userId,
        nextAttemptAt: at,
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
}
