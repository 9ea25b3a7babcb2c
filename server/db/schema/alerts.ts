import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { subscriptions, users } from "./accounts.ts";
import { channels, devices, tags } from "./devices.ts";
import { createdAt, tz } from "./helpers.ts";
import type { AlertNotify, Escalation, QuietHours } from "../../../src/domain/alerts.ts";

/**
 * An alert rule (spec entity ALERT). What it watches is one channel, every channel of a kind on
 * one device or on every device carrying a tag, or (for device rules) one device or a tag's
 * devices. Thresholds are kept in the channel's stored unit (Celsius for temperatures).
 */
export const alertRules = pgTable(
  "alert_rules",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** above, below, outside, offline, stale, battery */
    kind: text("kind").notNull(),
    severity: text("severity").notNull().default("warning"),
    channelId: integer("channel_id").references(() => channels.id, { onDelete: "cascade" }),
    deviceId: integer("device_id").references(() => devices.id, { onDelete: "cascade" }),
    tagId: integer("tag_id").references(() => tags.id, { onDelete: "cascade" }),
    /** Which channels of the device or tag a threshold rule watches (temperature, humidity, ...). */
    channelKind: text("channel_kind"),
    low: doublePrecision("low"),
    high: doublePrecision("high"),
    /** The scale the thresholds were typed in; they are stored converted. */
    scale: text("scale").notNull().default("F"),
    deadBand: doublePrecision("dead_band").notNull().default(0),
    delaySeconds: integer("delay_seconds").notNull().default(0),
    delayReadings: integer("delay_readings").notNull().default(1),
    graceSeconds: integer("grace_seconds").notNull().default(0),
    repeatMinutes: integer("repeat_minutes").notNull().default(0),
    notify: jsonb("notify").$type<AlertNotify>().notNull(),
    escalation: jsonb("escalation").$type<Escalation[]>().notNull().default([]),
    quietHours: jsonb("quiet_hours").$type<QuietHours | null>(),
    paused: boolean("paused").notNull().default(false),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("alert_rules_subscription").on(t.subscriptionId)],
);

/**
 * One alarm: a rule's condition on one subject (a channel, a device or a sensor), from pending
 * to cleared. At most one open alarm per rule and subject (the partial unique index), so two
 * instances that see the same breach open one alarm. `dueAt` is its timer: the end of the
 * delay while pending, the next repeat or escalation while triggered.
 */
export const alarms = pgTable(
  "alarms",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    ruleId: integer("rule_id").references(() => alertRules.id, { onDelete: "set null" }),
    ruleName: text("rule_name").notNull(),
    kind: text("kind").notNull(),
    severity: text("severity").notNull(),
    /** channel, device or sensor */
    subjectKind: text("subject_kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    channelId: integer("channel_id").references(() => channels.id, { onDelete: "cascade" }),
    /** pending, triggered, acknowledged, cleared */
    state: text("state").notNull(),
    /** The reading that opened or last moved it (stored unit). */
    value: doublePrecision("value"),
    limit: doublePrecision("limit_value"),
    /** When the condition began (the first breaching reading). */
    since: tz("since").notNull(),
    breaches: integer("breaches").notNull().default(1),
    triggeredAt: tz("triggered_at"),
    acknowledgedAt: tz("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
    clearedAt: tz("cleared_at"),
    dueAt: tz("due_at"),
    notices: integer("notices").notNull().default(0),
    escalationLevel: integer("escalation_level").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alarms_one_open")
      .on(t.ruleId, t.subjectKind, t.subjectId)
      .where(sql`state <> 'cleared'`),
    index("alarms_due")
      .on(t.dueAt)
      .where(sql`state in ('pending', 'triggered') and due_at is not null`),
    index("alarms_subscription").on(t.subscriptionId, t.id),
    index("alarms_device_open")
      .on(t.deviceId)
      .where(sql`state <> 'cleared'`),
  ],
);

/** Every move of an alarm, with the reading that caused it; an acknowledgement's note is its ALERT_COMMENT. */
export const alarmEvents = pgTable(
  "alarm_events",
  {
    id: serial("id").primaryKey(),
    alarmId: integer("alarm_id")
      .notNull()
      .references(() => alarms.id, { onDelete: "cascade" }),
    /** pending, triggered, repeated, escalated, acknowledged, cleared */
    kind: text("kind").notNull(),
    at: tz("at").notNull(),
    value: doublePrecision("value"),
    byUser: text("by_user"),
    note: text("note"),
  },
  (t) => [index("alarm_events_alarm").on(t.alarmId, t.id)],
);

/**
 * The alert outbox: one row per event and recipient, unique on both, so an event is queued for
 * a recipient once whatever runs it twice. Claimed with FOR UPDATE SKIP LOCKED.
 */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    alarmId: integer("alarm_id")
      .notNull()
      .references(() => alarms.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => alarmEvents.id, { onDelete: "cascade" }),
    /** email or webhook */
    channel: text("channel").notNull(),
    /** An address or a URL. */
    recipient: text("recipient").notNull(),
    /** The member it goes to (their scale and time zone), or null for an outside address. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** queued, sent, failed (gave up) */
    state: text("state").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tz("next_attempt_at").notNull(),
    /** A webhook being sent: another instance leaves it alone until then. */
    leaseUntil: tz("lease_until"),
    lastError: text("last_error"),
    sentAt: tz("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alert_deliveries_once").on(t.eventId, t.channel, t.recipient),
    index("alert_deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`state = 'queued'`),
    index("alert_deliveries_alarm").on(t.alarmId),
  ],
);

/** Each attempt to deliver, for the owner's delivery log. */
export const alertAttempts = pgTable(
  "alert_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: "cascade" }),
    at: tz("at").notNull(),
    ok: boolean("ok").notNull(),
    detail: text("detail").notNull(),
  },
  (t) => [index("alert_attempts_delivery").on(t.deliveryId)],
);

/** Acknowledge links in alert mail: only the hash is kept, valid while the alarm is open. */
export const alarmAckTokens = pgTable("alarm_ack_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  alarmId: integer("alarm_id")
    .notNull()
    .references(() => alarms.id, { onDelete: "cascade" }),
  /** Whom the link was mailed to: the acknowledgement is theirs. */
  recipient: text("recipient").notNull(),
  expiresAt: tz("expires_at").notNull(),
});

/** Per subscription: the webhook signing secret, made at the first webhook rule. */
export const alertSettings = pgTable("alert_settings", {
  subscriptionId: integer("subscription_id")
    .primaryKey()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  webhookSecret: text("webhook_secret").notNull(),
});
