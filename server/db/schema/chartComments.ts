import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { subscriptions, users } from "./accounts.ts";
import { channels } from "./devices.ts";
import { createdAt, tz } from "./helpers.ts";

/**
 * A comment pinned to a time on a channel ("door open for delivery", issue 36): drawn on the
 * report, live and explore charts and listed in the PDF. The subscription is kept beside the
 * channel so a device that moves to another subscription does not take its old notes along.
 */
export const chartComments = pgTable(
  "chart_comments",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    /** The moment on the chart the comment is about. */
    at: tz("at").notNull(),
    /** At most 280 characters (src/api/chartMarks.ts). */
    text: text("text").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    /** The author's name as it was when written (shown only where names are shown). */
    authorName: text("author_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("chart_comments_channel_at").on(t.channelId, t.at)],
);
