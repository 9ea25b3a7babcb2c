import { boolean, doublePrecision, integer, pgTable, primaryKey, serial, text } from "drizzle-orm/pg-core";
import { subscriptions } from "./accounts.ts";
import { channels } from "./devices.ts";
import { createdAt, tz } from "./helpers.ts";

export const reports = pgTable("reports", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  /** Unguessable public link token; null when not shared. */
  publicHash: text("public_hash").unique(),
  /** Seconds: above 0 shows the last N seconds, otherwise startDate to endDate. */
  timeInterval: integer("time_interval").notNull().default(0),
  startDate: tz("start_date"),
  endDate: tz("end_date"),
  /** The public link stops opening the report at this time (null: never). */
  expiresAt: tz("expires_at"),
  /** Set while the owner has paused the public link: it answers like a missing one. */
  pausedAt: tz("paused_at"),
  /** Visitors of the public link may subscribe to its alarms (issue 36). */
  visitorsMaySubscribe: boolean("visitors_may_subscribe").notNull().default(true),
  /** Whether the public report shows who acknowledged an alarm, with the note, and comments' authors (issue 36). */
  showAlarmNotes: boolean("show_alarm_notes").notNull().default(false),
  /** ΔH for the mean kinetic temperature, kJ/mol (src/domain/compliance.ts). */
  mktActivationEnergy: doublePrecision("mkt_activation_energy").notNull().default(83.144),
  createdAt: createdAt(),
});

/**
 * Views of a report's public link, one row per report and UTC day (one upsert per view, so
 * counting stays cheap however often the link is opened); the builder sums the last 30 days.
 */
export const reportViews = pgTable(
  "report_views",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** The UTC midnight that starts the day. */
    day: tz("day").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.day] })],
);

export const reportChannels = pgTable(
  "report_channels",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    color: text("color").notNull(),
    axis: integer("axis").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.channelId] })],
);

export const thresholdRanges = pgTable("threshold_ranges", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  channelId: integer("channel_id").references(() => channels.id, { onDelete: "cascade" }),
  /** Celsius for temperature channels. */
  minValue: doublePrecision("min_value"),
  maxValue: doublePrecision("max_value"),
  color: text("color").notNull(),
});

export const reportThresholds = pgTable(
  "report_thresholds",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    thresholdRangeId: integer("threshold_range_id")
      .notNull()
      .references(() => thresholdRanges.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.thresholdRangeId] })],
);
