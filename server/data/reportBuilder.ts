import { DEFAULT_ACTIVATION_ENERGY } from "../../src/domain/compliance.ts";
import { and, asc, count, eq, gte, inArray, notExists, sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import {
  channelGroups,
  channels,
  devices,
  reportChannels,
  reportThresholds,
  reportViews,
  reports,
  sensors,
  thresholdRanges,
} from "../db/schema/index.ts";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import type { ChannelOption, ReportDetail, ReportInput, ReportSummary } from "../../src/api/reportBuilder.ts";
import { requireRoom } from "./planLimits.ts";
import { epochOrNull, linkOf, viewsSince, type ReportRow } from "./reportLinks.ts";
import { SENSOR_NAME } from "./channels.ts";

const channelCounts = (db: Db) =>
  db
    .select({ reportId: reportChannels.reportId, n: count().as("n") })
    .from(reportChannels)
    .groupBy(reportChannels.reportId)
    .as("cc");

/** The subscription's reports (or one of them) as the list shows them. */
export async function reportSummaries(
  db: Db,
  subscriptionId: number,
  now: Date,
  onlyId?: number,
): Promise<ReportSummary[]> {
  const cc = channelCounts(db);
  const since = viewsSince(now);
  const views = db
    .select({ reportId: reportViews.reportId, n: sql<number>`sum(${reportViews.views})::int`.as("v") })
    .from(reportViews)
    .where(gte(reportViews.day, since))
    .groupBy(reportViews.reportId)
    .as("rv");
  const rows = await db
    .select({ report: reports, channelCount: cc.n, views: views.n })
    .from(reports)
    .leftJoin(cc, eq(cc.reportId, reports.id))
    .leftJoin(views, eq(views.reportId, reports.id))
    .where(
      and(
        eq(reports.subscriptionId, subscriptionId),
        onlyId === undefined ? undefined : eq(reports.id, onlyId),
      ),
    )
    .orderBy(asc(sql`lower(${reports.name})`), asc(reports.id));
  return rows.map(({ report, channelCount, views: n }) => ({
    id: report.id,
    name: report.name,
    channelCount: Number(channelCount ?? 0),
    timeInterval: report.timeInterval,
    startDate: epochOrNull(report.startDate),
    endDate: epochOrNull(report.endDate),
    link: linkOf(report, now),
    views30Days: Number(n ?? 0),
  }));
}

/** A report row by id, or null; callers check its subscription. */
export async function findReport(db: Db, id: number): Promise<ReportRow | null> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  return row ?? null;
}

/** One report of the subscription with its channels and threshold ranges, or null. */
export async function reportDetail(
  db: Db,
  subscriptionId: number,
  id: number,
  now: Date,
): Promise<ReportDetail | null> {
  const [summary] = await reportSummaries(db, subscriptionId, now, id);
  if (!summary) return null;
  const [picked, ranges, row] = await Promise.all([
    db
      .select({ channelId: reportChannels.channelId, color: reportChannels.color, axis: reportChannels.axis })
      .from(reportChannels)
      .where(eq(reportChannels.reportId, id))
      .orderBy(asc(reportChannels.axis), asc(reportChannels.channelId)),
    db
      .select({
        id: thresholdRanges.id,
        name: thresholdRanges.name,
        channelId: thresholdRanges.channelId,
        minValue: thresholdRanges.minValue,
        maxValue: thresholdRanges.maxValue,
        color: thresholdRanges.color,
      })
      .from(reportThresholds)
      .innerJoin(thresholdRanges, eq(thresholdRanges.id, reportThresholds.thresholdRangeId))
      .where(and(eq(reportThresholds.reportId, id), eq(thresholdRanges.subscriptionId, subscriptionId)))
      .orderBy(asc(thresholdRanges.id)),
    findReport(db, id),
  ]);
  const mktActivationEnergy = row?.mktActivationEnergy ?? DEFAULT_ACTIVATION_ENERGY;
  return { ...summary, mktActivationEnergy, channels: picked, thresholds: ranges };
}

/** Every channel of the subscription's devices, by device, sensor and channel. */
export async function channelOptions(db: Db, subscriptionId: number): Promise<ChannelOption[]> {
  return db
    .select({
      channelId: channels.id,
      channelKey: channels.channelKey,
      deviceId: devices.id,
      deviceName: devices.name,
      // The sensor's name as the device pages and the public report show it.
      sensorName: SENSOR_NAME,
      channelName: channels.name,
      kind: channels.kind,
      units: channels.units,
    })
    .from(channels)
    .innerJoin(channelGroups, eq(channelGroups.id, channels.channelGroupId))
    .innerJoin(sensors, eq(sensors.id, channelGroups.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(eq(devices.subscriptionId, subscriptionId))
    .orderBy(
      asc(sql`lower(${devices.name})`),
      asc(devices.id),
      asc(sensors.id),
      asc(channelGroups.id),
      asc(channels.id),
    );
}

/** Refuses channels that are not the subscription's devices' own, exactly like missing ones. */
async function requireOwnChannels(tx: Db, subscriptionId: number, ids: readonly number[]) {
  const found = await tx
    .select({ id: channels.id })
    .from(channels)
    .innerJoin(channelGroups, eq(channelGroups.id, channels.channelGroupId))
    .innerJoin(sensors, eq(sensors.id, channelGroups.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(and(inArray(channels.id, [...ids]), eq(devices.subscriptionId, subscriptionId)));
  if (found.length !== new Set(ids).size) throw new ApiError(404, NOT_FOUND);
}

/** Deletes those of these threshold ranges that no report uses any more. */
async function dropUnusedRanges(tx: Db, ids: number[]) {
  if (!ids.length) return;
  await tx
    .delete(thresholdRanges)
    .where(
      and(
        inArray(thresholdRanges.id, ids),
        notExists(
          tx.select().from(reportThresholds).where(eq(reportThresholds.thresholdRangeId, thresholdRanges.id)),
        ),
      ),
    );
}

/** Replaces the report's channels and threshold ranges (ranges no other report uses go with it). */
async function writeParts(tx: Db, subscriptionId: number, reportId: number, input: ReportInput) {
  await tx.delete(reportChannels).where(eq(reportChannels.reportId, reportId));
  await tx.insert(reportChannels).values(input.channels.map((c) => ({ reportId, ...c })));
  const old = await tx
    .delete(reportThresholds)
    .where(eq(reportThresholds.reportId, reportId))
    .returning({ id: reportThresholds.thresholdRangeId });
  await dropUnusedRanges(
    tx,
    old.map((o) => o.id),
  );
  if (!input.thresholds.length) return;
  const made = await tx
    .insert(thresholdRanges)
    .values(input.thresholds.map((t) => ({ subscriptionId, ...t })))
    .returning({ id: thresholdRanges.id });
  await tx.insert(reportThresholds).values(made.map((m) => ({ reportId, thresholdRangeId: m.id })));
}

const timingOf = (input: ReportInput) =>
  input.timeInterval > 0
    ? { timeInterval: input.timeInterval, startDate: null, endDate: null }
    : {
        timeInterval: 0,
        startDate: new Date(input.startDate! * 1000),
        endDate: new Date(input.endDate! * 1000),
      };

/** ΔH for the report's mean kinetic temperature (kJ/mol); a form that does not send it keeps the default. */
const mktOf = (input: ReportInput) => ({ mktActivationEnergy: input.mktActivationEnergy });

/**
 * Creates a report (not shared) with its channels and ranges, in one transaction; its id.
 * Within the plan's report limit: past it, 403 saying how many the plan includes.
 */
export async function createReport(db: Db, subscriptionId: number, input: ReportInput): Promise<number> {
  return inTransaction(db, async (tx) => {
    await requireRoom(tx, subscriptionId, "reports", async () => {
      const [row] = await tx
        .select({ n: count() })
        .from(reports)
        .where(eq(reports.subscriptionId, subscriptionId));
      return row?.n ?? 0;
    });
    await requireOwnChannels(
      tx,
      subscriptionId,
      input.channels.map((c) => c.channelId),
    );
    const [row] = await tx
      .insert(reports)
      .values({ subscriptionId, name: input.name, ...timingOf(input), ...mktOf(input) })
      .returning({ id: reports.id });
    await writeParts(tx, subscriptionId, row!.id, input);
    return row!.id;
  });
}

/** Replaces a report's name, window, channels and ranges; false when it is gone meanwhile. */
export async function updateReport(
  db: Db,
  subscriptionId: number,
  id: number,
  input: ReportInput,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await requireOwnChannels(
      tx,
      subscriptionId,
      input.channels.map((c) => c.channelId),
    );
    const updated = await tx
      .update(reports)
      .set({ name: input.name, ...timingOf(input), ...mktOf(input) })
      .where(and(eq(reports.id, id), eq(reports.subscriptionId, subscriptionId)))
      .returning({ id: reports.id });
    if (!updated.length) return false;
    await writeParts(tx, subscriptionId, id, input);
    return true;
  });
}

/** Deletes a report and the ranges only it used; false when there was none. */
export async function deleteReport(db: Db, id: number): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const ranges = await tx
      .select({ id: reportThresholds.thresholdRangeId })
      .from(reportThresholds)
      .where(eq(reportThresholds.reportId, id));
    const gone = await tx.delete(reports).where(eq(reports.id, id)).returning({ id: reports.id });
    await dropUnusedRanges(
      tx,
      ranges.map((r) => r.id),
    );
    return gone.length > 0;
  });
}
