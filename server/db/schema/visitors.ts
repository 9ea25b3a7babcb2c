import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { alarmEvents } from "./alerts.ts";
import { reports } from "./reports.ts";
import { createdAt, tz } from "./helpers.ts";

/**
 * A visitor of a public report who asked to hear when an alarm triggers or clears on it:
 * pending until the emailed confirm link's button is pressed, then confirmed. One row per
 * report and address. `lastSentAt` starts the address's 10-minute window for this report.
 */
export const visitorSubscribers = pgTable(
  "visitor_subscribers",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** Lower case, trimmed. */
    email: text("email").notNull(),
    /** pending, confirmed */
    state: text("state").notNull().default("pending"),
    /** When an unconfirmed row stops counting against the report's cap (and its link stops working). */
    confirmBy: tz("confirm_by"),
    confirmedAt: tz("confirmed_at"),
    lastSentAt: tz("last_sent_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("visitor_subscribers_once").on(t.reportId, t.email)],
);

/**
 * The emailed confirm and unsubscribe links: only their tokens' hashes, as with the portal's
 * other one-time links. A message carries its own unsubscribe link; deleting the subscriber
 * deletes every link.
 */
export const visitorLinks = pgTable(
  "visitor_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => visitorSubscribers.id, { onDelete: "cascade" }),
    /** confirm, unsubscribe */
    purpose: text("purpose").notNull(),
    expiresAt: tz("expires_at").notNull(),
  },
  (t) => [index("visitor_links_subscriber").on(t.subscriberId)],
);

/**
 * The visitors' outbox: one row per alarm event and subscriber, queued in the alarm move's
 * transaction; the delivery step claims subscribers FOR UPDATE SKIP LOCKED and sends what is
 * queued as one message (a digest when several) once the subscriber's window allows.
 */
export const visitorNotices = pgTable(
  "visitor_notices",
  {
    id: serial("id").primaryKey(),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => visitorSubscribers.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => alarmEvents.id, { onDelete: "cascade" }),
    sentAt: tz("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("visitor_notices_once").on(t.eventId, t.subscriberId),
    index("visitor_notices_queued").on(t.subscriberId),
  ],
);
