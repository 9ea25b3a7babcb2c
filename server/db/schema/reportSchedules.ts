import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { outbox, subscriptions, users } from "./accounts.ts";
import { reports } from "./reports.ts";
import { createdAt, tz } from "./helpers.ts";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * A report mailed daily, weekly or monthly at a local hour (src/domain/reportSchedule.ts).
 * `nextRunAt` is the due instant; the scheduler claims due rows with FOR UPDATE SKIP LOCKED
 * and moves it on in the transaction that queues the run's deliveries.
 */
export const reportSchedules = pgTable(
  "report_schedules",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** daily, weekly, monthly */
    cadence: text("cadence").notNull(),
    hour: integer("hour").notNull(),
    /** ISO weekday 1-7 (weekly only; 1 otherwise). */
    weekday: integer("weekday").notNull().default(1),
    timeZone: text("time_zone").notNull(),
    /** F or C */
    scale: text("scale").notNull(),
    /** pdf, csv, both */
    format: text("format").notNull(),
    /** Member user ids (checked to be members when saved and when sent). */
    memberIds: jsonb("member_ids").$type<number[]>().notNull(),
    /** Outside addresses, lower case. */
    emails: jsonb("emails").$type<string[]>().notNull(),
    nextRunAt: tz("next_run_at").notNull(),
    paused: boolean("paused").notNull().default(false),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("report_schedules_due")
      .on(t.nextRunAt)
      .where(sql`paused = false`),
    index("report_schedules_report").on(t.reportId),
  ],
);

/**
 * The delivery log and outbox of scheduled reports: one row per schedule run and recipient,
 * unique on the three, so a run is queued once whatever instance claims it. Sending is
 * claimed with a lease and retried with backoff; `outboxId` is the stored message (written
 * once, sent again on a retry).
 */
export const reportDeliveries = pgTable(
  "report_deliveries",
  {
    id: serial("id").primaryKey(),
    scheduleId: integer("schedule_id")
      .notNull()
      .references(() => reportSchedules.id, { onDelete: "cascade" }),
    /** The due instant of the run (its period ends at the local midnight before it). */
    runAt: tz("run_at").notNull(),
    recipient: text("recipient").notNull(),
    /** The member it goes to, or null for an outside address. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** queued, sent, failed (gave up), skipped (unsubscribed or no longer a member) */
    state: text("state").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tz("next_attempt_at").notNull(),
    leaseUntil: tz("lease_until"),
    lastError: text("last_error"),
    sentAt: tz("sent_at"),
    outboxId: integer("outbox_id").references(() => outbox.id, { onDelete: "set null" }),
    /** Hash of the one-click unsubscribe token in this message. */
    unsubscribeHash: text("unsubscribe_hash").unique(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("report_deliveries_once").on(t.scheduleId, t.runAt, t.recipient),
    index("report_deliveries_due")
      .on(t.nextAttemptAt)
      .where(sql`state = 'queued'`),
  ],
);

/** Files attached to a stored message; deleted with it (the outbox's retention). */
export const outboxAttachments = pgTable(
  "outbox_attachments",
  {
    id: serial("id").primaryKey(),
    outboxId: integer("outbox_id")
      .notNull()
      .references(() => outbox.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
  },
  (t) => [index("outbox_attachments_outbox").on(t.outboxId)],
);
