// The alerts' time-based work, run by every instance at every tick (ALERT_TICK_MS): delays that
// end without a new reading, silent devices, stale sensors, low batteries, repeats and
// escalation. Each alarm is claimed with FOR UPDATE SKIP LOCKED (or opened through the
// one-open-alarm index), so N instances on one PostgreSQL neither lose nor double a move.
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import { alarms, alertRules, channels } from "../db/schema/index.ts";
import type { AlarmRow, RuleRow } from "../data/alerts.ts";
import { latestValue } from "../data/channelValue.ts";
import { breaches, limitCrossed, STALE_AFTER_SECONDS, type Thresholds } from "../../src/domain/alerts.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { delayMet } from "./alertEvaluation.ts";
import { recordSchedulerMove } from "./alarmAudit.ts";
import { dropPending, moveAlarm, openAlarm, type Subject } from "./alarmMoves.ts";

const BATCH = 200;

/** One tick's moves; returns how many alarms moved (the caller then delivers at once). */
export async function runAlertTick(db: Db, now: Date, auditKey?: string): Promise<number> {
  let moved = 0;
  moved += await inTransaction(db, (tx) => duePending(tx, now));
  moved += await inTransaction(db, (tx) => deviceConditions(tx, now));
  moved += await inTransaction(db, (tx) => dueRepeats(tx, now, auditKey));
  await inTransaction(db, (tx) => sweepUnwatched(tx, now));
  return moved;
}

/**
 * Open threshold alarms nothing watches any more clear, silently: their rule went with a deleted
 * tag, channel or device (the rows cascade), or the device lost the rule's tag. The next reading
 * would never reach them, so they would stay open for ever.
 */
async function sweepUnwatched(tx: Db, now: Date) {
  const gone = await rows<{ id: number }>(
    tx,
    sql`select a.id from alarms a
        left join alert_rules r on r.id = a.rule_id
        left join channels c on c.id = a.channel_id
        -- coalesce: a null comparison (a channel rule's tag, a tag rule's channel) means "not watched".
        where a.state <> 'cleared' and a.subject_kind = 'channel'
          and (r.id is null or not coalesce(r.channel_id = a.channel_id
            or (r.channel_id is null and r.channel_kind = c.kind
              and (r.device_id = a.device_id
                or r.tag_id in (select tag_id from entity_tags where entity_type = ${EntityType.DEVICE} and entity_id = a.device_id))), false))
        order by a.id limit ${BATCH}
        for update of a skip locked`,
  );
  for (const { id } of gone) {
    const [alarm] = await tx.select().from(alarms).where(eq(alarms.id, id));
    if (!alarm) continue;
    if (alarm.state === "pending") await dropPending(tx, alarm);
    else
      await moveAlarm(
        tx,
        alarm,
        null,
        "cleared",
        { at: now, note: "No rule watches this any more.", silent: true },
        now,
      );
  }
}

async function rulesByIds(tx: Db, ids: number[]): Promise<Map<number, RuleRow>> {
  if (!ids.length) return new Map();
  const list = await tx
    .select()
    .from(alertRules)
    .where(inArray(alertRules.id, [...new Set(ids)]));
  return new Map(list.map((r) => [r.id, r]));
}

/** Claims due alarms of a state; rows another instance holds are skipped, not waited for. */
function claimDue(tx: Db, state: "pending" | "triggered", now: Date) {
  return tx
    .select()
    .from(alarms)
    .where(and(eq(alarms.state, state), lte(alarms.dueAt, now)))
    .orderBy(alarms.dueAt)
    .limit(BATCH)
    .for("update", { skipLocked: true });
}

/** Pending threshold alarms whose delay ended: triggered if the channel still breaches. */
async function duePending(tx: Db, now: Date): Promise<number> {
  const due = (await claimDue(tx, "pending", now)).filter((a) => a.subjectKind === "channel");
  const rules = await rulesByIds(tx, due.map((a) => a.ruleId!).filter(Boolean));
  let moved = 0;
  for (const alarm of due) {
    const rule = rules.get(alarm.ruleId ?? 0);
    const [ch] = await tx
      .select({ value: latestValue, adjust: channels.adjust })
      .from(channels)
      .where(eq(channels.id, alarm.channelId ?? 0));
    if (!rule || !ch || ch.value === null) {
      await dropPending(tx, alarm);
      continue;
    }
    const t: Thresholds = {
      kind: rule.kind as Thresholds["kind"],
      low: rule.low,
      high: rule.high,
      deadBand: rule.deadBand,
    };
    const v = ch.value + ch.adjust;
    if (!breaches(t, v)) await dropPending(tx, alarm);
    else if (delayMet(alarm, rule, now)) {
      await moveAlarm(
        tx,
        { ...alarm, limit: limitCrossed(t, v) },
        rule,
        "triggered",
        { at: now, value: v },
        now,
      );
      moved++;
      // Readings in a row still missing: the next reading decides.
    } else await tx.update(alarms).set({ dueAt: null }).where(eq(alarms.id, alarm.id));
  }
  return moved;
}

/**
 * Triggered, unacknowledged alarms whose repeat or escalation is due. Each repeat and escalation
 * is the scheduler's own move: its audit row commits with it (flows/alarmAudit.ts).
 */
async function dueRepeats(tx: Db, now: Date, auditKey?: string): Promise<number> {
  // By subscription: the chains' heads are then taken in one order by every instance.
  const due = (await claimDue(tx, "triggered", now)).sort((a, b) => a.subscriptionId - b.subscriptionId);
  const rules = await rulesByIds(tx, due.map((a) => a.ruleId!).filter(Boolean));
  let moved = 0;
  for (const alarm of due) {
    const rule = rules.get(alarm.ruleId ?? 0) ?? null;
    if (!rule) {
      await tx.update(alarms).set({ dueAt: null }).where(eq(alarms.id, alarm.id));
      continue;
    }
    const tier = rule.escalation[alarm.escalationLevel];
    const escalate =
      tier && alarm.triggeredAt && now.getTime() >= alarm.triggeredAt.getTime() + tier.afterMinutes * 60_000;
    const done = await moveAlarm(tx, alarm, rule, escalate ? "escalated" : "repeated", { at: now }, now);
    await recordSchedulerMove(tx, alarm, done, now, auditKey);
    moved++;
  }
  return moved;
}

interface Breaching {
  rule_id: number;
  subject_kind: "device" | "sensor";
  subject_id: number;
  device_id: number;
  value: number | null;
  since: Date | string;
}

/**
 * Silent devices, stale sensors and low batteries, set-based: what breaches now opens its alarm
 * (one per rule and subject, whoever gets there first), what no longer does clears.
 */
async function deviceConditions(tx: Db, now: Date): Promise<number> {
  const breaching = await rows<Breaching>(
    tx,
    sql`with targets as (
          select r.id as rule_id, r.kind, r.grace_seconds, d.id as device_id, d.last_message_at, d.push_interval
          from alert_rules r join devices d on d.subscription_id = r.subscription_id
          where not r.paused and r.kind in ('offline', 'stale', 'battery') and not d.is_suspended
            and (r.device_id = d.id or (r.device_id is null and r.tag_id is null)
              or r.tag_id in (select tag_id from entity_tags where entity_type = ${EntityType.DEVICE} and entity_id = d.id)))
        select rule_id, 'device' as subject_kind, device_id as subject_id, device_id, null::float8 as value,
            last_message_at + make_interval(secs => push_interval + grace_seconds) as since
          from targets
          where kind = 'offline' and last_message_at is not null
            and last_message_at + make_interval(secs => push_interval + grace_seconds) < ${now}
        union all
        select t.rule_id, 'sensor', s.id, t.device_id, null::float8, s.last_received_at + make_interval(secs => ${STALE_AFTER_SECONDS})
          from targets t join sensors s on s.device_id = t.device_id
          where t.kind = 'stale' and s.last_received_at is not null
            and s.last_received_at < ${now}::timestamptz - make_interval(secs => ${STALE_AFTER_SECONDS})
        union all
        select t.rule_id, 'sensor', s.id, t.device_id, s.battery::float8, ${now}::timestamptz
          from targets t join sensors s on s.device_id = t.device_id
          where t.kind = 'battery' and s.battery is not null and s.battery <= 30 and not s.plugged_in`,
  );
  const open = await tx
    .select()
    .from(alarms)
    .where(and(inArray(alarms.subjectKind, ["device", "sensor"]), sql`${alarms.state} <> 'cleared'`));
  const key = (r: { rule: number | null; kind: string; id: number }) => `${r.rule}:${r.kind}:${r.id}`;
  const openKeys = new Map(
    open.map((a) => [key({ rule: a.ruleId, kind: a.subjectKind, id: a.subjectId }), a]),
  );
  const nowBreaching = new Set(
    breaching.map((b) => key({ rule: b.rule_id, kind: b.subject_kind, id: b.subject_id })),
  );
  const rules = await rulesByIds(tx, [...breaching.map((b) => b.rule_id), ...open.map((a) => a.ruleId ?? 0)]);
  let moved = 0;
  for (const b of breaching) {
    const rule = rules.get(b.rule_id);
    if (!rule || openKeys.has(key({ rule: b.rule_id, kind: b.subject_kind, id: b.subject_id }))) continue;
    const subject: Subject = {
      kind: b.subject_kind,
      id: b.subject_id,
      deviceId: b.device_id,
      channelId: null,
    };
    const since = new Date(b.since);
    const opened = await openAlarm(tx, rule, subject, { value: b.value, limit: null, at: since }, now);
    if (opened) moved++;
  }
  for (const a of open) {
    const stillBreaching = nowBreaching.has(key({ rule: a.ruleId, kind: a.subjectKind, id: a.subjectId }));
    const rule = rules.get(a.ruleId ?? 0) ?? null;
    const due = a.state === "pending" && stillBreaching && (!a.dueAt || a.dueAt <= now);
    if (stillBreaching && !due) continue;
    // Claimed now: another instance that holds it is already moving it.
    const [mine] = await tx
      .select()
      .from(alarms)
      .where(and(eq(alarms.id, a.id), eq(alarms.state, a.state)))
      .for("update", { skipLocked: true });
    if (!mine) continue;
    moved += await settle(tx, mine, rule, stillBreaching, now);
  }
  return moved;
}

async function settle(tx: Db, alarm: AlarmRow, rule: RuleRow | null, breachingNow: boolean, now: Date) {
  if (alarm.state === "pending") {
    if (!breachingNow || !rule) await dropPending(tx, alarm);
    else await moveAlarm(tx, alarm, rule, "triggered", { at: now }, now);
    return breachingNow && rule ? 1 : 0;
  }
  await moveAlarm(tx, alarm, rule, "cleared", { at: now }, now);
  return 1;
}
