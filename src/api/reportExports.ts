import * as z from "zod/mini";
import { isRealIsoMoment, MAX_ID } from "./fields.ts";
import { endpoint } from "./endpoint.ts";

/*
 * A shared report drawn and written by the server (spec sections 2 and 7, issue 10): the first
 * chart as SVG, the readings as CSV, the audit PDF. Each takes the report's public hash; a
 * malformed, unknown, deleted, regenerated, expired or paused link answers 404 before any other
 * input is looked at. An unknown time zone falls back to UTC and an unknown temperature scale
 * to F (spec section 5), never an error. The answers are files, not the JSON envelope.
 */

/** Optional text of bounded length: a parameter read leniently (fallbacks, not errors). */
const loose = (max: number) => z.optional(z.string().check(z.maxLength(max, `At most ${max} characters.`)));

const digits = (field: string, max: number) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= max, `${field} must be a whole number.`)),
  );

const epochQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= MAX_ID, `${field} must be epoch seconds.`)),
  );

const isoQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => v.length <= 40 && isRealIsoMoment(v), `${field} must be an ISO date and time.`)),
  );

/** Comma-separated channel ids, or empty. */
const idList = z.optional(
  z
    .string()
    .check(
      z.refine(
        (v) => v.length <= 2000 && /^\s*(\d{1,10}\s*(,\s*\d{1,10}\s*)*)?,?$/.test(v),
        "channelIds must be channel ids separated by commas.",
      ),
    ),
);

export const SVG_WIDTH = { min: 240, max: 3840, step: 40, fallback: 960 } as const;
export const SVG_HEIGHT = { min: 120, max: 2160, step: 20, fallback: 300 } as const;

export const getReportSvg = endpoint({
  method: "get",
  path: "/public/report-svg/:hash",
  host: "web",
  body: "query",
  request: z.object({
    /** CSS pixels; rounded up to a step of 40 (width) or 20 (height) and held to the limits. */
    width: digits("width", 100_000),
    height: digits("height", 100_000),
    tempScale: loose(16),
    timezone: loose(64),
    /** "dark" for the kiosk's dark theme. */
    theme: loose(16),
  }),
  response: z.string(),
  summary:
    "A shared report's current chart as image/svg+xml, drawn by ECharts on the server at the visitor's width and height, temperature scale (F default) and time zone (UTC default; axis labels in that zone): a line per channel in its colour, threshold ranges as bands, gaps where a device was silent. Cached briefly per hash, size, scale, zone and data.",
});

export const downloadReportCsv = endpoint({
  method: "get",
  path: "/api/v1/device-data/public/samples/csv",
  host: "api",
  body: "query",
  request: z.object({
    publicHash: z.string(),
    startTime: epochQuery("startTime"),
    endTime: epochQuery("endTime"),
    temperatureScale: loose(16),
    timeZone: loose(64),
    reportName: loose(200),
  }),
  response: z.string(),
  summary:
    "A shared report's readings as text/csv, streamed: 'Time' then a column per channel ('Cold Room - Temperature (°F)'), one row per time, times in the chosen zone with their offset (2026-03-08T01:59:00-05:00), temperatures in the chosen scale. startTime and endTime (epoch seconds) default to the report's window and are clipped to it; no row limit. The file is named after reportName, else the report.",
});

export const downloadReportPdf = endpoint({
  method: "get",
  path: "/public/report-pdf/",
  host: "web",
  body: "query",
  request: z.object({
    reportPublicLinkHash: z.string(),
    timezone: loose(64),
    tempScale: loose(16),
    /** The title the PDF shows and is named after; the report's own name by default. */
    channelReportName: loose(200),
    /** Comma-separated channel ids: only those of the report's channels (all by default). */
    channelIds: idList,
    startTime: isoQuery("startTime"),
    endTime: isoQuery("endTime"),
  }),
  response: z.string(),
  summary:
    "A shared report as an audit PDF: name, range, zone, the chart with its thresholds, per channel minimum, maximum, average, time outside the thresholds and the excursions, the time it was made, and a QR code of the live report's address. startTime and endTime (ISO) default to the report's window and are clipped to it.",
});
