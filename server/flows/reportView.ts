// The shared steps of the report exports (reportExports.ts): open a report by its public hash,
// read its channels, thresholds and chart data, and turn them into what a picture shows, in
// the visitor's temperature scale. Not a route file.
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { secondsOf } from "../core/time.ts";
import { chartData } from "../data/chartData.ts";
import {
  chartChannels,
  reportByPublicHash,
  reportChannelList,
  reportPlan,
  reportThresholdList,
  timingOf,
  type ReportChannel,
  type ReportRow,
  type ReportThreshold,
} from "../data/reports.ts";
import type { Deps } from "../deps.ts";
import type { SvgChart, SvgSeries } from "../services/chartSvg.ts";
import { thresholdMarks } from "../../src/domain/chartAxes.ts";
import { findGaps } from "../../src/domain/chartGaps.ts";
import { celsius, type EpochSeconds } from "../../src/domain/brand.ts";
import { oldestAllowed } from "../../src/domain/plan.ts";
import { isTemperatureKind, unitIn } from "../../src/domain/device.ts";
import { reportWindow, type TimeWindow } from "../../src/domain/reportWindow.ts";
import { fromCelsius, type TemperatureScale } from "../../src/domain/temperature.ts";
import type { ReportSeries } from "../../src/api/reports.ts";

type Db = Deps["db"];

/** The report a public hash opens now, else the same 404 for every kind of bad link. */
export async function openReport(db: Db, hash: string | undefined, now: Date): Promise<ReportRow> {
  const report = await reportByPublicHash(db, hash ?? "", now);
  if (!report) throw new ApiError(404, NOT_FOUND);
  return report;
}

/** The report's own window at `now`, starting no earlier than its owner's plan keeps data. */
export function planWindow(report: ReportRow, limits: Readonly<Record<string, unknown>>, now: Date) {
  const at = secondsOf(now) as EpochSeconds;
  return reportWindow(timingOf(report), at, oldestAllowed(limits, at));
}

/** A report's channels and thresholds, its owner's plan, and its window at `now` (planWindow). */
export async function reportParts(db: Db, report: ReportRow, now: Date) {
  const [channels, thresholds, plan] = await Promise.all([
    reportChannelList(db, report.id),
    reportThresholdList(db, report.id),
    reportPlan(db, report),
  ]);
  return { channels, thresholds, plan, window: planWindow(report, plan.limits, now) };
}

/** The chart data of the channels over the window (downsampled, with statistics and excursions). */
export function readSeries(
  db: Db,
  channels: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
  window: TimeWindow,
): Promise<ReportSeries[]> {
  return chartData(db, chartChannels(channels, thresholds), window);
}

/** A channel's values in the chosen scale: temperatures converted and rounded, others as read. */
export function valueIn(kind: string, scale: TemperatureScale): (v: number) => number {
  return isTemperatureKind(kind) ? (v) => fromCelsius(celsius(v), scale) : (v) => v;
}

/** The picture's lines: one per channel, in its colour, on its axis, values in the scale. */
export function svgSeries(
  channels: readonly ReportChannel[],
  series: readonly ReportSeries[],
  scale: TemperatureScale,
): SvgSeries[] {
  return channels.map((ch) => {
    const convert = valueIn(ch.kind, scale);
    const own = series.find((s) => s.channelId === ch.channelId);
    return {
      name: ch.name,
      color: ch.color,
      axis: ch.axis,
      unit: unitIn(ch.kind, ch.units, scale),
      points: (own?.points ?? []).map(([at, v]) => [at, v === null ? null : convert(v)] as const),
      bucketSeconds: own?.bucketSeconds ?? 0,
    };
  });
}

/** The threshold ranges as the picture draws them (bands or dashed edges), in the scale. */
export function svgMarks(
  channels: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
  scale: TemperatureScale,
): Pick<SvgChart, "bands" | "edges"> {
  return thresholdMarks(
    channels.map((ch) => ({ key: ch.channelKey, kind: ch.kind, axis: ch.axis, color: ch.color })),
    thresholds.map((t) => ({
      name: t.name,
      key: t.channelKey,
      min: t.minValue,
      max: t.maxValue,
      color: t.color,
    })),
    (line) => valueIn(channels[line]!.kind, scale),
  );
}

/** What makes the picture change besides the clock: channels, colours, thresholds, latest readings. */
export function dataVersion(channels: readonly ReportChannel[], thresholds: readonly ReportThreshold[]) {
  return JSON.stringify([
    channels.map((c) => [c.channelId, c.color, c.axis, c.adjust, c.kind, c.lastReceived]),
    thresholds.map((t) => [t.id, t.name, t.channelId, t.minValue, t.maxValue, t.color]),
  ]);
}

/** Percent-encoding for filename*: encodeURIComponent leaves ' ( ) * as they are. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A Content-Disposition naming the file after the report: "Lab Climate — Audit Week.csv" in
 * UTF-8 (RFC 5987) with a plain ASCII fallback; control characters, path and quoting
 * characters removed; `fallback` when nothing printable is left.
 */
export function fileDisposition(kind: "attachment" | "inline", name: string, ext: string, fallback: string) {
  const clean = name
    .replace(/[\p{Cc}\p{Cf}\\/:*?"<>|]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 100)
    .trim();
  const ascii = clean
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[%;,'`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!clean) return `${kind}; filename="${fallback}.${ext}"`;
  return `${kind}; filename="${ascii || fallback}.${ext}"; filename*=UTF-8''${rfc5987(`${clean}.${ext}`)}`;
}

/** The channels a PDF asked for by id (ids not in the report ignored); all of them when none is left. */
export function pickChannels(channels: readonly ReportChannel[], ids: string | undefined): ReportChannel[] {
  const wanted = new Set(
    (ids ?? "")
      .split(",")
      .filter((v) => v.trim() !== "")
      .map((v) => Number(v)),
  );
  const picked = channels.filter((ch) => wanted.has(ch.channelId));
  return picked.length ? picked : [...channels];
}

/**
 * The PDF's channel sections: statistics and excursions in the scale, excursions named by their
 * range, and the stretches of the window without readings (the chart's gap marks).
 */
export function pdfChannels(
  channels: readonly ReportChannel[],
  thresholds: readonly ReportThreshold[],
  series: readonly ReportSeries[],
  scale: TemperatureScale,
  window: TimeWindow,
) {
  const rangeName = new Map(thresholds.map((t) => [t.id, t.name]));
  return channels.map((ch) => {
    const s = series.find((x) => x.channelId === ch.channelId);
    const inScale = valueIn(ch.kind, scale);
    // Temperatures are rounded by the scale's rule; other readings to two decimals for reading.
    const convert = isTemperatureKind(ch.kind) ? inScale : (v: number) => Math.round(inScale(v) * 100) / 100;
    return {
      name: ch.name,
      color: ch.color,
      unit: unitIn(ch.kind, ch.units, scale),
      stats: s?.stats
        ? { min: convert(s.stats.min), max: convert(s.stats.max), avg: convert(s.stats.avg) }
        : null,
      secondsOutside: s?.secondsOutside ?? 0,
      gaps: findGaps(s?.points ?? [], { from: window.start, to: window.end }, s?.bucketSeconds ?? 0),
      excursions: (s?.excursions ?? []).map((e) => ({
        range: rangeName.get(e.thresholdRangeId) ?? "",
        start: e.start,
        end: e.end,
        duration: e.duration,
        worst: convert(e.worst),
      })),
    };
  });
}
