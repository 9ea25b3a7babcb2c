// Threshold rules, evaluated with the push that brings the reading, inside its transaction: the
// readings, the alarm's move and its queued notices commit together or not at all.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { alarms } from "../db/schema/index.ts";
import { THRESHOLD_SQL, type AlarmRow, type RuleRow } from "../data/alerts.ts";
import { limitCrossed, stepAlarm, type AlarmState, type Thresholds } from "../../src/domain/alerts.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { dropPending, moveAlarm, openAlarm } from "./alarmMoves.ts";

export interface PushedReading {
  channelId: number;
  time: Date;
  value: number;
}

/**
 * The active threshold rules watching any of these channels of these devices: the channel itself,
 * or channels of the rule's kind on the device or on a device carrying the rule's tag. One
 * statement for a whole batch of pushes, using the rules' subscription index.
 */
async function rulesWatching(
  tx: Db,
  pairs: readonly { channelId: number; device: { id: number; subscriptionId: number } }[],
) {
  const list = (pick: (p: (typeof pairs)[number]) => number) =>
    sql`${`{${pairs.map(pick).join(",")}}`}::int[]`;
  return rows<RuleRow & { watched_channel: number; adjust: number; device_id: number }>(
    tx,
    sql`select r.id, r.subscription_id as "subscriptionId", r.name, r.kind, r.severity, r.low, r.high,
          r.dead_band as "deadBand", r.delay_seconds as "delaySeconds", r.delay_readings as "delayReadings",
          r.repeat_minutes as "repeatMinutes", r.notify, r.escalation, r.quiet_hours as "quietHours",
          c.id as watched_channel, c.adjust, p.d as device_id
        from unnest(${list((p) => p.channelId)}, ${list((p) => p.device.id)}, ${list((p) => p.device.subscriptionId)})
          as p(c, d, s)
        join channels c on c.id = p.c
        join alert_rules r on r.subscription_id = p.s and not r.paused
          and r.kind in ('above', 'below', 'outside')
          and (r.channel_id = c.id
            or (r.channel_id is null and r.channel_kind = c.kind
              and (r.device_id = p.d
                or r.tag_id in (select tag_id from entity_tags
                  where entity_type = ${EntityType.DEVICE} and entity_id = p.d))))
        order by r.id, c.id`,
  );
}

/** A batch's pushes as the alert rules see them: each device with its readings. */
export interface PushedBatchItem {
  /** `watched`, when the caller read it with the device's lock: whether its subscription has a threshold rule running. */
  device: { id: number; subscriptionId: number; watched?: boolean | undefined };
  readings: PushedReading[];
}

/**
 * The alert rules run on a whole batch of pushes inside its transaction: the rules and open
 * alarms of all its devices in two statements (one per push cost more than storing the push),
 * then each device's readings stepped as evaluateReadings does. Returns each push's moves.
 */
export async function evaluateBatch(tx: Db, batch: readonly PushedBatchItem[], now: Date): Promise<number[]> {
  const subscriptions = [...new Set(batch.map((b) => b.device.subscriptionId))];
  // Most pushes come from subscriptions without threshold rules: the push batch read that with
  // its devices' locks (ingestBatch.ts); else one small indexed lookup.
  const withRules = batch.every((b) => b.device.watched !== undefined)
    ? new Set(batch.filter((b) => b.device.watched).map((b) => b.device.subscriptionId))
    : new Set(
        (
          await rows<{ id: number }>(
            tx,
            sql`select distinct subscription_id as id from alert_rules
              where subscription_id = any(${`{${subscriptions.join(",")}}`}::int[])
              and not paused and kind in ${THRESHOLD_SQL}`,
          )
        ).map((r) => r.id),
      );
  const watched = batch.filter((b) => b.readings.length && withRules.has(b.device.subscriptionId));
  if (!watched.length) return batch.map(() => 0);
  const pairs = watched.flatMap((b) =>
    [...new Set(b.readings.map((r) => r.channelId))].map((channelId) => ({ channelId, device: b.device })),
  );
  const watching = await rulesWatching(tx, pairs);
  if (!watching.length) return batch.map(() => 0);
  const channelIds = [...new Set(watching.map((w) => w.watched_channel))];
  const open = await tx
    .select()
    .from(alarms)
    .where(
      and(
        inArray(alarms.ruleId, [...new Set(watching.map((w) => w.id))]),
        eq(alarms.subjectKind, "channel"),
        inArray(alarms.subjectId, channelIds),
        ne(alarms.state, "cleared"),
      ),
    )
    .orderBy(alarms.id)
    .for("update");
  const moved: number[] = [];
  for (const b of batch) {
    const mine = watching.filter((w) => w.device_id === b.device.id);
    moved.push(mine.length ? await stepReadings(tx, b.device, b.readings, mine, open, now) : 0);
  }
  return moved;
}

/**
 * Moves the alarms these readings decide, reading by reading in time order: a breach opens a
 * pending alarm (or counts one more reading in a row), a pending alarm triggers once its delay
 * and readings in a row are met and disappears when a reading is back inside, a triggered one
 * clears once a reading is back past the dead band. Returns how many alarms moved.
 */
export async function evaluateReadings(
  tx: Db,
  device: { id: number; subscriptionId: number },
  readings: PushedReading[],
  now: Date,
): Promise<number> {
  return (await evaluateBatch(tx, [{ device, readings }], now))[0]!;
}

/** One device's readings stepped through the rules watching its channels and their open alarms. */
async function stepReadings(
  tx: Db,
  device: { id: number; subscriptionId: number },
  readings: PushedReading[],
  watching: (RuleRow & { watched_channel: number; adjust: number })[],
  open: AlarmRow[],
  now: Date,
): Promise<number> {
  const sorted = [...readings].sort((a, b) => a.time.getTime() - b.time.getTime());
  let moved = 0;
  for (const rule of watching) {
    const t = {
      kind: rule.kind as Thresholds["kind"],
      low: rule.low,
      high: rule.high,
      deadBand: rule.deadBand,
    };
    const steps = { ...t, delaySeconds: rule.delaySeconds, delayReadings: rule.delayReadings };
    let alarm: AlarmRow | null =
      open.find((a) => a.ruleId === rule.id && a.subjectId === rule.watched_channel) ?? null;
    for (const r of sorted) {
      if (r.channelId !== rule.watched_channel) continue;
      // A late reading from before the alarm began says nothing about it now.
      if (alarm && r.time < alarm.since) continue;
      const v = r.value + rule.adjust;
      const state = alarm && {
        state: alarm.state as AlarmState,
        sinceMs: alarm.since.getTime(),
        breaches: alarm.breaches,
      };
      const step = stepAlarm(state, steps, v, r.time.getTime());
      if (step.move === "open") {
        const subject = {
          kind: "channel" as const,
          id: r.channelId,
          deviceId: device.id,
          channelId: r.channelId,
        };
        alarm = await openAlarm(tx, rule, subject, { value: v, limit: limitCrossed(t, v), at: r.time }, now);
        if (alarm) moved++;
      } else if (step.move === "drop" && alarm) {
        await dropPending(tx, alarm);
        alarm = null;
      } else if (step.move === "count" && alarm) {
        await tx
          .update(alarms)
          .set({ breaches: alarm.breaches + 1, value: v })
          .where(eq(alarms.id, alarm.id));
        alarm = { ...alarm, breaches: alarm.breaches + 1, value: v };
        if (step.triggered) {
          alarm = await moveAlarm(tx, alarm, rule, "triggered", { at: r.time, value: v }, now);
          moved++;
        }
      } else if (step.move === "clear" && alarm) {
        await moveAlarm(tx, alarm, rule, "cleared", { at: r.time, value: v }, now);
        alarm = null;
        moved++;
      }
    }
  }
  return moved;
}

/** A pending alarm may trigger: held for the delay and for the readings in a row the rule asks. */
export function delayMet(
  alarm: { since: Date; breaches: number },
  rule: { delaySeconds: number; delayReadings: number },
  at: Date,
): boolean {
  return (
    alarm.breaches >= rule.delayReadings && at.getTime() - alarm.since.getTime() >= rule.delaySeconds * 1000
  );
}
