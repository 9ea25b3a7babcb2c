import * as z from "zod/mini";
import { MAX_ID } from "./fields.ts";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";

/*
 * The public report page (spec sections 2, 3 and 7): its metadata, refreshed every 30 seconds,
 * and its chart data. Both take the report's public hash; a malformed, unknown, deleted,
 * regenerated, expired or paused link answers 404 (the page shows 'Invalid Report Link').
 * Times are epoch seconds; values are the stored readings plus the channel's adjustment, in
 * Celsius for temperatures (the page converts with src/domain/temperature.ts).
 */

const epoch = z.int();
const WindowSchema = z.object({ start: epoch, end: epoch });

/** Spec section 3: reportDetails. timeInterval above 0 is a rolling window of that many seconds. */
export const ReportDetailsSchema = z.object({
  name: z.string(),
  timeInterval: z.int(),
  startDate: z.nullable(epoch),
  endDate: z.nullable(epoch),
});

/** One channel of the report as its legend, tooltips and kiosk tiles show it. */
export const ReportSensorSchema = z.object({
  /** 'sensor name - channel name', the legend's text. */
  name: z.string(),
  sensorName: z.string(),
  channelName: z.string(),
  /** temperature, humidity, dew_point, heat_index, voltage, co2, … */
  kind: z.string(),
  units: z.nullable(z.string()),
  /** The latest reading (adjusted), and when its sensor last reported. */
  value: z.nullable(z.number()),
  lastReceived: z.nullable(epoch),
  /** The device's address (the spec's deviceList and channelKeyList join on it). */
  macAddress: z.string(),
});
export type ReportSensor = z.infer<typeof ReportSensorSchema>;

/** A threshold range: the band of values that is out of specification (null leaves a side open). */
export const ThresholdRangeSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** The channel it applies to; null applies it to every channel of the report. */
  channelKey: z.nullable(z.string()),
  minValue: z.nullable(z.number()),
  maxValue: z.nullable(z.number()),
  color: z.string(),
});
export type ThresholdRangeView = z.infer<typeof ThresholdRangeSchema>;

/** Spec section 3, Public report response, plus the report's window at the time of the answer. */
export const PublicReportSchema = z.object({
  /** Channel key → its names, kind, units and latest reading. */
  sensorMap: z.record(z.string(), ReportSensorSchema),
  reportDetails: ReportDetailsSchema,
  deviceList: z.array(z.object({ deviceName: z.string(), macAddress: z.string() })),
  /** The report's channels in order, each with its colour and y axis (0 left, 1 right). */
  channelKeyList: z.array(
    z.object({
      channelKey: z.string(),
      channelId: z.int(),
      macAddress: z.string(),
      color: z.string(),
      axis: z.int(),
    }),
  ),
  channelIdList: z.array(z.int()),
  thresholdRangeAssociations: z.array(z.object({ thresholdRange: ThresholdRangeSchema })),
  /** The window the report shows now (a rolling one ends at the server's clock). */
  window: WindowSchema,
  /** Whether the owner's plan lets visitors download the readings as CSV (else the page hides it). */
  csvExport: z.boolean(),
});
export type PublicReport = z.infer<typeof PublicReportSchema>;

export const getPublicReport = endpoint({
  method: "get",
  path: PUBLIC_API.report,
  host: "api",
  body: "query",
  request: z.object({
    /** "1" on the page's 30-second refreshes, which do not count as views. */
    refresh: z.optional(z.string()),
  }),
  response: PublicReportSchema,
  summary:
    "A shared report's metadata (spec section 3): name and window, devices, channels with colours and axes, names 'sensor name - channel name', units, latest readings, threshold ranges (Celsius for temperatures). refresh=1 marks the page's 30-second refreshes, which are not views. 404 for a bad, deleted, expired or paused link.",
});

const epochQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= MAX_ID, `${field} must be epoch seconds.`)),
  );

const StatsSchema = z.object({ min: z.number(), max: z.number(), avg: z.number(), count: z.int() });

export const ExcursionSchema = z.object({
  thresholdRangeId: z.int(),
  start: epoch,
  end: epoch,
  /** Seconds. */
  duration: z.int(),
  /** The reading deepest in the range, and when it was read. */
  worst: z.number(),
  worstAt: epoch,
});
export type ExcursionView = z.infer<typeof ExcursionSchema>;

export const ReportSeriesSchema = z.object({
  channelId: z.int(),
  channelKey: z.string(),
  /** 0 when the points are the raw readings; else the width of the buckets each min/max pair stands for. */
  bucketSeconds: z.int(),
  /** [time, value] oldest first, at most ~3000; [time, null] marks a gap (the device was silent). */
  points: z.array(z.tuple([epoch, z.nullable(z.number())])),
  /** Over the whole window; null without readings. */
  stats: z.nullable(StatsSchema),
  excursions: z.array(ExcursionSchema),
  /** Time spent in any of the channel's threshold ranges. */
  secondsOutside: z.int(),
  /** The resolution of the excursion times: 0 = exact to the reading, else a bucket width in seconds. */
  excursionPrecision: z.int(),
});
export type ReportSeries = z.infer<typeof ReportSeriesSchema>;

export const ReportDataSchema = z.object({
  /** The window served: the one asked for, clipped to the report's own. */
  start: epoch,
  end: epoch,
  series: z.array(ReportSeriesSchema),
});
export type ReportData = z.infer<typeof ReportDataSchema>;

/**
 * A series as the chart data call sends it: its points as two lists (src/domain/chartPoints.ts),
 * times as differences from the one before, about a third of the pairs' size gzipped.
 */
export const ReportSeriesWireSchema = z.object({
  ...z.omit(ReportSeriesSchema, { points: true }).shape,
  times: z.array(z.int()),
  values: z.array(z.nullable(z.number())),
});
export const ReportDataWireSchema = z.object({
  start: epoch,
  end: epoch,
  series: z.array(ReportSeriesWireSchema),
});
export type ReportDataWire = z.infer<typeof ReportDataWireSchema>;

export const getPublicReportData = endpoint({
  method: "get",
  path: PUBLIC_API.reportData,
  host: "api",
  body: "query",
  request: z.object({ start: epochQuery("start"), end: epochQuery("end") }),
  response: ReportDataWireSchema,
  summary:
    "A shared report's chart data: per channel at most ~3000 points (each bucket's min and max, nulls where the device was silent) as `times` (epoch seconds, each after the first as the difference from the one before) and `values`, min/max/average, and the excursions into its threshold ranges. start and end (epoch seconds) default to the report's window and are clipped to it.",
});
