import { and, asc, eq, ne, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { alarms, alertRules, alertSettings, devices, entityTags } from "../db/schema/index.ts";
import { EntityType } from "../../src/domain/enums.ts";

/*
 * The alert tables' SQL (issue 34): rules, what they watch, the webhook secret, mutes (alarms as
 * people read them are in alarms.ts). The flows in server/flows/alert*.ts decide; this file reads
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

/**
 * The one device a rule watches, for the trail's device history: its device, or its channel's;
 * null for a rule on a tag (it may watch many).
 */
export async function ruleDeviceId(db: Db, ruleId: number): Promise<number | null> {
  const [row] = await rows<{ device_id: number | null }>(
    db,
    sql`select coalesce(r.device_id, s.device_id) as device_id from alert_rules r
        left join channels c on c.id = r.channel_id
        left join channel_groups g on g.id = c.channel_group_id
        left join sensors s on s.id = g.sensor_id
        where r.id = ${ruleId}`,
  );
  return row?.device_id ?? null;
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

/**
 * What a rule's target is called, as the rules list names it: a channel by its key, a device
 * or a tag by id, within the subscription; null when it names none of its records.
 */
export async function targetName(
  db: Db,
  subscriptionId: number,
  t: { channelKey?: unknown; deviceId?: unknown; tagId?: unknown },
): Promise<string | null> {
  const key = typeof t.channelKey === "string" ? t.channelKey : null;
  const device = typeof t.deviceId === "number" ? t.deviceId : null;
  const tag = typeof t.tagId === "number" ? t.tagId : null;
  const [row] = await rows<{ name: string }>(
    db,
    sql`select coalesce(nullif(d.name, ''), d.mac_address) || ' - ' || coalesce(nullif(g.label, ''), nullif(s.label, ''), s.sensor_type, s.mac_address) || ' - ' || c.name as name
          from channels c join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
          join devices d on d.id = s.device_id where c.channel_key = ${key} and d.subscription_id = ${subscriptionId}
        union all
        select coalesce(nullif(d.name, ''), d.mac_address) from devices d where d.id = ${device} and d.subscription_id = ${subscriptionId}
        union all
        select 'Tag ' || t.name from tags t where t.id = ${tag} and t.subscription_id = ${subscriptionId}
        limit 1`,
  );
  return row?.name ?? null;
}

/** The addresses of the subscription's members among `userIds`, by id. */
export async function memberEmails(db: Db, subscriptionId: number, userIds: number[]) {
  if (!userIds.length) return new Map<number, string>();
  const found = await rows<{ id: number; email: string }>(
    db,
    sql`select u.id, u.email from users u join user_assignments a on a.user_id = u.id
        where a.subscription_id = ${subscriptionId} and u.id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Map(found.map((f) => [f.id, f.email]));
}

/** The subscription's webhook secret, made once (two first callers agree on one). */
export async function webhookSecretOf(db: Db, subscriptionId: number, fresh: () => string): Promise<string> {
  await db.insert(alertSettings).values({ subscriptionId, webhookSecret: fresh() }).onConflictDoNothing();
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.subscriptionId, subscriptionId));
  return row!.webhookSecret;
}

export async function setDeviceMute(db: Db, deviceId: number, until: Date | null) {
  await db.update(devices).set({ alertsMutedUntil: until }).where(eq(devices.id, deviceId));
}
