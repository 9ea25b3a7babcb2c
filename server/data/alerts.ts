import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import {
  alarmAckTokens,
  alarmEvents,
  alarms,
  alertAttempts,
  alertDeliveries,
  alertRules,
  alertSettings,
  channels,
  devices,
  entityTags,
} from "../db/schema/index.ts";
import { EntityType } from "../../src/domain/enums.ts";

/*
 * The alert tables' SQL (issue 34). The flows in server/flows/alert*.ts decide; this file reads
 * and writes. Every read of a subscription's rows names the subscription.
 */

export type RuleRow = typeof alertRules.$inferSelect;
export type AlarmRow = typeof alarms.$inferSelect;
export type NewRule = typeof alertRules.$inferInsert;

export const THRESHOLD_SQL = sql`('above', 'below', 'outside')`;

export async function rulesOf(db: Db, subscriptionId: number) {
  return db
    .select()
    .from(alertRules)
    .where(eq(alertRules.subscriptionId, subscriptionId))
    .orderBy(asc(alertRules.name), asc(alertRules.id));
}

export async function ruleById(db: Db, id: number): Promise<RuleRow | undefined> {
  const [row] = await db.select().from(alertRules).where(eq(alertRules.id, id));
  return row;
}

export async function countRules(db: Db, subscriptionId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from alert_rules where subscription_id = ${subscriptionId}`,
  );
  return row?.n ?? 0;
}

/** Open alarms per rule, and each rule's own tags (entity type ALERT). */
export async function ruleExtras(db: Db, subscriptionId: number) {
  const open = await rows<{ rule_id: number; n: number }>(
    db,
    sql`select rule_id, count(*)::int as n from alarms
        where subscription_id = ${subscriptionId} and state <> 'cleared' and rule_id is not null group by rule_id`,
  );
  const tagged = await rows<{ entity_id: number; tag_id: number }>(
    db,
    sql`select et.entity_id, et.tag_id from entity_tags et join tags t on t.id = et.tag_id
        where t.subscription_id = ${subscriptionId} and et.entity_type = ${EntityType.ALERT}`,
  );
  return {
    openByRule: new Map(open.map((o) => [o.rule_id, o.n])),
    tagsByRule: tagged.reduce(
      (m, t) => m.set(t.entity_id, [...(m.get(t.entity_id) ?? []), t.tag_id]),
      new Map<number, number[]>(),
    ),
  };
}

export async function insertRule(tx: Db, rule: NewRule): Promise<RuleRow> {
  const [row] = await tx.insert(alertRules).values(rule).returning();
  return row!;
}

export async function updateRuleRow(tx: Db, id: number, patch: Partial<NewRule>): Promise<RuleRow> {
  const [row] = await tx.update(alertRules).set(patch).where(eq(alertRules.id, id)).returning();
  return row!;
}

/** Replaces a rule's own tags (alertTagList). */
export async function setRuleTags(tx: Db, ruleId: number, tagIds: number[]) {
  await tx
    .delete(entityTags)
    .where(and(eq(entityTags.entityType, EntityType.ALERT), eq(entityTags.entityId, ruleId)));
  if (tagIds.length)
    await tx
      .insert(entityTags)
      .values(
        [...new Set(tagIds)].map((tagId) => ({ tagId, entityType: EntityType.ALERT, entityId: ruleId })),
      )
      .onConflictDoNothing();
}

export async function deleteRuleRow(tx: Db, id: number) {
  await tx
    .delete(entityTags)
    .where(and(eq(entityTags.entityType, EntityType.ALERT), eq(entityTags.entityId, id)));
  const gone = await tx.delete(alertRules).where(eq(alertRules.id, id)).returning({ id: alertRules.id });
  return gone.length > 0;
}

/** A rule's open alarms, locked: pausing or deleting it clears them. */
export async function openAlarmsOfRule(tx: Db, ruleId: number): Promise<AlarmRow[]> {
  return tx
    .select()
    .from(alarms)
    .where(and(eq(alarms.ruleId, ruleId), ne(alarms.state, "cleared")))
    .for("update");
}

/** A channel by key with its device's subscription, for picking a rule's channel. */
export async function channelByKey(db: Db, key: string) {
  const [row] = await rows<{
    id: number;
    kind: string;
    units: string | null;
    device_id: number;
    subscription_id: number;
  }>(
    db,
    sql`select c.id, c.kind, c.units, s.device_id, d.subscription_id
        from channels c join channel_groups g on g.id = c.channel_group_id
        join sensors s on s.id = g.sensor_id join devices d on d.id = s.device_id
        where c.channel_key = ${key}`,
  );
  return row;
}

/** A channel's key, kind and device. */
export async function channelById(db: Db, id: number) {
  const [row] = await rows<{ key: string; kind: string; deviceId: number }>(
    db,
    sql`select c.channel_key as key, c.kind, s.device_id as "deviceId"
        from channels c join channel_groups g on g.id = c.channel_group_id
        join sensors s on s.id = g.sensor_id where c.id = ${id}`,
  );
  return row;
}

export async function deviceSubscription(db: Db, id: number) {
  const [row] = await db
    .select({ id: devices.id, subscriptionId: devices.subscriptionId, name: devices.name })
    .from(devices)
    .where(eq(devices.id, id));
  return row;
}

export async function thresholdRange(db: Db, id: number) {
  const [row] = await rows<{
    subscription_id: number;
    min_value: number | null;
    max_value: number | null;
  }>(db, sql`select subscription_id, min_value, max_value from threshold_ranges where id = ${id}`);
  return row;
}

/** Members (ids) of a subscription among the given ones. */
export async function membersAmong(db: Db, subscriptionId: number, userIds: number[]) {
  if (!userIds.length) return new Set<number>();
  const found = await rows<{ user_id: number }>(
    db,
    sql`select user_id from user_assignments where subscription_id = ${subscriptionId}
        and user_id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Set(found.map((f) => f.user_id));
}

/** Tags of a subscription among the given ones. */
export async function tagsAmong(db: Db, subscriptionId: number, tagIds: number[]) {
  if (!tagIds.length) return new Set<number>();
  const found = await rows<{ id: number }>(
    db,
    sql`select id from tags where subscription_id = ${subscriptionId}
        and id in (${sql.join(
          tagIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Set(found.map((f) => f.id));
}

/** What each rule watches, as a person reads it. */
export async function watchNames(db: Db, subscriptionId: number) {
  const named = await rows<{ kind: string; id: number; name: string }>(
    db,
    sql`select 'channel' as kind, c.id, coalesce(nullif(d.name, ''), d.mac_address) || ' - ' || coalesce(nullif(g.label, ''), nullif(s.label, ''), s.sensor_type, s.mac_address) || ' - ' || c.name as name
          from alert_rules r join channels c on c.id = r.channel_id
          join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
          join devices d on d.id = s.device_id where r.subscription_id = ${subscriptionId}
        union all
        select 'device', d.id, coalesce(nullif(d.name, ''), d.mac_address) from alert_rules r join devices d on d.id = r.device_id
          where r.subscription_id = ${subscriptionId}
        union all
        select 'tag', t.id, t.name from alert_rules r join tags t on t.id = r.tag_id where r.subscription_id = ${subscriptionId}`,
  );
  return new Map(named.map((n) => [`${n.kind}:${n.id}`, n.name]));
}

/** Alarms with what a list shows of their device and channel. */
export interface AlarmView extends AlarmRow {
  deviceName: string;
  channelKey: string | null;
  channelName: string | null;
  channelKind: string | null;
  units: string | null;
}

function alarmViews(db: Db) {
  return db
    .select({
      alarm: alarms,
      deviceName: sql<string>`coalesce(nullif(${devices.name}, ''), ${devices.macAddress})`,
      channelKey: channels.channelKey,
      // "Chest Freezer - Temperature": the card's title and the channel, as the device page names them.
      channelName: sql<
        string | null
      >`(select coalesce(nullif(g.label, ''), nullif(s.label, ''), s.sensor_type, s.mac_address) || ' - ' || ${channels.name}
        from channel_groups g join sensors s on s.id = g.sensor_id where g.id = ${channels.channelGroupId})`,
      channelKind: channels.kind,
      units: channels.units,
    })
    .from(alarms)
    .innerJoin(devices, eq(devices.id, alarms.deviceId))
    .leftJoin(channels, eq(channels.id, alarms.channelId));
}
const flatten = (r: {
  alarm: AlarmRow;
  deviceName: string;
  channelKey: string | null;
  channelName: string | null;
  channelKind: string | null;
  units: string | null;
}): AlarmView => ({ ...r.alarm, ...r, alarm: undefined }) as unknown as AlarmView;

/** Active alarms (or the last 500 of all), active first, then newest. */
export async function alarmList(db: Db, subscriptionId: number, active: boolean, deviceId?: number) {
  const where = and(
    eq(alarms.subscriptionId, subscriptionId),
    active ? inArray(alarms.state, ["triggered", "acknowledged"]) : ne(alarms.state, "pending"),
    deviceId === undefined ? undefined : eq(alarms.deviceId, deviceId),
  );
  const found = await alarmViews(db)
    .where(where)
    .orderBy(
      sql`case ${alarms.state} when 'triggered' then 0 when 'acknowledged' then 1 else 2 end`,
      desc(alarms.id),
    )
    .limit(500);
  return found.map(flatten);
}

export async function alarmView(db: Db, id: number): Promise<AlarmView | undefined> {
  const [row] = await alarmViews(db).where(eq(alarms.id, id));
  return row ? flatten(row) : undefined;
}

export async function alarmHistory(db: Db, alarmId: number) {
  return db.select().from(alarmEvents).where(eq(alarmEvents.alarmId, alarmId)).orderBy(asc(alarmEvents.id));
}

export async function alarmDeliveries(db: Db, alarmId: number) {
  const list = await db
    .select({ d: alertDeliveries, event: alarmEvents.kind })
    .from(alertDeliveries)
    .innerJoin(alarmEvents, eq(alarmEvents.id, alertDeliveries.eventId))
    .where(eq(alertDeliveries.alarmId, alarmId))
    .orderBy(asc(alertDeliveries.id));
  const ids = list.map((l) => l.d.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(alertAttempts)
        .where(inArray(alertAttempts.deliveryId, ids))
        .orderBy(asc(alertAttempts.id))
    : [];
  return list.map((l) => ({ ...l.d, event: l.event, log: attempts.filter((a) => a.deliveryId === l.d.id) }));
}

/** The subscription's webhook secret, made once (two first callers agree on one). */
export async function webhookSecretOf(db: Db, subscriptionId: number, fresh: () => string): Promise<string> {
  await db.insert(alertSettings).values({ subscriptionId, webhookSecret: fresh() }).onConflictDoNothing();
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.subscriptionId, subscriptionId));
  return row!.webhookSecret;
}

/** The alarm an acknowledge link opens, while the link lasts and the alarm is open. */
export async function ackLink(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      alarmId: alarmAckTokens.alarmId,
      recipient: alarmAckTokens.recipient,
      expiresAt: alarmAckTokens.expiresAt,
    })
    .from(alarmAckTokens)
    .where(eq(alarmAckTokens.tokenHash, tokenHash));
  return row && row.expiresAt > now ? row : undefined;
}

export async function setDeviceMute(db: Db, deviceId: number, until: Date | null) {
  await db.update(devices).set({ alertsMutedUntil: until }).where(eq(devices.id, deviceId));
}

/** Open alarms per device of a subscription (the device list's red state). */
export async function openAlarmDevices(db: Db, subscriptionId: number) {
  const found = await rows<{ device_id: number; channel_id: number | null; severity: string; state: string }>(
    db,
    sql`select device_id, channel_id, severity, state from alarms
        where subscription_id = ${subscriptionId} and state in ('triggered', 'acknowledged')`,
  );
  return found;
}
