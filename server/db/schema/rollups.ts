import { doublePrecision, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { channels } from "./devices.ts";
import { tz } from "./helpers.ts";

/**
 * Samples rolled up into fixed buckets per channel (levels in src/domain/downsample.ts: 5 min,
 * 15 min, 1 h and 3 h), kept exact at ingestion and by the demo history, so a chart of a year
 * reads a few thousand rows instead of half a million. Buckets start at multiples of their
 * width since the epoch. The times of the minimum and maximum place the chart's points where
 * the readings were; the first and last times show where a device went silent.
 */
export const sampleRollups = pgTable(
  "sample_rollups",
  {
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    /** The bucket's width in seconds (its level). */
    level: integer("level").notNull(),
    bucket: tz("bucket").notNull(),
    minValue: doublePrecision("min_value").notNull(),
    maxValue: doublePrecision("max_value").notNull(),
    sumValue: doublePrecision("sum_value").notNull(),
    sampleCount: integer("sample_count").notNull(),
    minAt: tz("min_at").notNull(),
    maxAt: tz("max_at").notNull(),
    firstAt: tz("first_at").notNull(),
    lastAt: tz("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.level, t.bucket] })],
);
