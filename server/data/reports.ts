import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { latestValue } from "./channelValue.ts";
import {
  channelGroups,
  channels,
  devices,
  reportChannels,
  reportThresholds,
  reports,
  sensors,
  subscriptions,
  thresholdRanges,
} from "../db/schema/index.ts";
import { secondsOf } from "../core/time.ts";
import { channelTitle, SENSOR_NAME } from "./channels.ts";
import { adjusted } from "./sensors.ts";
import type { ChartChannel } from "./chartData.ts";
import { gapSecondsFor } from "../../src/domain/downsample.ts";
import type { ReportTiming } from "../../src/domain/reportWindow.ts";

export type ReportRow = typeof reports.$inferSelect;

/** Public report hashes are base64url tokens; anything else is not looked up at all. */
const HASH_FORM = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The report a public hash opens at `now`, or null: a malformed, unknown, deleted or
 * regenerated hash, and (once the builder's link columns exist) an expired or paused link,
 * all look the same.
 */
export async function reportByPublicHash(db: Db, hash: string, now: Date): Promise<ReportRow | null> {
  if (!HASH_FORM.test(hash)) return null;
  const [row] = await db.select().from(reports).where(eq(reports.publicHash, hash));
  return row && linkOpen(row, now) ? row : null;
}

/** The plan (feature flags and limits) of the subscription a report belongs to. */
export async function reportPlan(
  db: Db,
  report: ReportRow,
): Promise<{ features: Record<string, unknown>; limits: Record<string, unknown> }> {
  const [row] = await db
    .select({ features: subscriptions.features, limits: subscriptions.limits })
    .from(subscriptions)
    .where(eq(subscriptions.id, report.subscriptionId));
  return { features: row?.features ?? {}, limits: row?.limits ?? {} };
}

/** Whether a shared link still opens its report: not paused, not past its expiry. */
function linkOpen(row: ReportRow, now: Date): boolean {
  const link = row as ReportRow & { expiresAt?: Date | null; pausedAt?: Date | null };
  if (link.pausedAt) return false;
  return !link.expiresAt || link.expiresAt > now;
}

/** The report's timing in epoch seconds, as src/domain/reportWindow.ts takes it. */
export function timingOf(row: ReportRow): ReportTiming {
  return {
    timeInterval: row.timeInterval,
    startDate: row.startDate ? secondsOf(row.startDate) : null,
    endDate: row.endDate ? secondsOf(row.endDate) : null,
  };
}

/** The report's channels in order with their device, names, colour, axis and latest reading. */
export async function reportChannelList(db: Db, reportId: number) {
  const found = await db
    .select({
      channelId: channels.id,
      channelKey: channels.channelKey,
      channelName: channels.name,
      kind: channels.kind,
      units: channels.units,
      value: latestValue,
      adjust: channels.adjust,
      // The sensor's name as the device pages show it (server/data/channels.ts).
      sensorName: SENSOR_NAME,
      lastReceivedAt: channelGroups.lastReceivedAt,
      deviceName: devices.name,
      macAddress: devices.macAddress,
      pushInterval: devices.pushInterval,
      color: reportChannels.color,
      axis: reportChannels.axis,
    })
    .from(reportChannels)
    .innerJoin(channels, eq(channels.id, reportChannels.channelId))
    .innerJoin(channelGroups, eq(channelGroups.id, channels.channelGroupId))
    .innerJoin(sensors, eq(sensors.id, channelGroups.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .innerJoin(reports, eq(reports.id, reportChannels.reportId))
    // A channel moved to another subscription's device is not the report owner's to show.
    .where(and(eq(reportChannels.reportId, reportId), eq(devices.subscriptionId, reports.subscriptionId)))
    .orderBy(asc(reportChannels.axis), asc(channels.id));
  return found.map((r) => ({
    ...r,
    name: channelTitle(r.sensorName, r.channelName),
    latest: adjusted(r.value, r.adjust),
    lastReceived: r.lastReceivedAt ? secondsOf(r.lastReceivedAt) : null,
  }));
}
export type ReportChannel = Awaited<ReturnType<typeof reportChannelList>>[number];

/** The report's threshold ranges (Celsius for temperatures), each with its channel's key or null. */
export async function reportThresholdList(db: Db, reportId: number) {
  return db
    .select({
      id: thresholdRanges.id,
      name: thresholdRanges.name,
      channelId: thresholdRanges.channelId,
      channelKey: channels.channelKey,
      minValue: thresholdRanges.minValue,
      maxValue: thresholdRanges.maxValue,
      color: thresholdRanges.color,
    })
    .from(reportThresholds)
    .innerJoin(thresholdRanges, eq(thresholdRanges.id, reportThresholds.thresholdRangeId))
    .innerJoin(reports, eq(reports.id, reportThresholds.reportId))
    .leftJoin(channels, eq(channels.id, thresholdRanges.channelId))
    .where(
      and(
        eq(reportThresholds.reportId, reportId),
        eq(thresholdRanges.subscriptionId, reports.subscriptionId),
      ),
    )
    .orderBy(asc(thresholdRanges.id));
}
export type ReportThreshold = Awaited<ReturnType<typeof reportThresholdList>>[number];

/** The report's channels as the chart reads them, each with the ranges that apply to it. */
export function chartChannels(
  list: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
): ChartChannel[] {
  return list.map((ch) => ({
    channelId: ch.channelId,
    channelKey: ch.channelKey,
    adjust: ch.adjust,
    gapSeconds: gapSecondsFor(ch.pushInterval),
    ranges: thresholds
      .filter((t) => t.channelId === null || t.channelId === ch.channelId)
      .map((t) => ({ id: t.id, min: t.minValue, max: t.maxValue })),
  }));
}
