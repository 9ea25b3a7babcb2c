import * as z from "zod/mini";
import { isOneLine } from "../domain/plainText.ts";
import { endpoint } from "./endpoint.ts";
import { idField, orDefault } from "./fields.ts";
import {
  ACTIVATION_ENERGY_RULE,
  checkActivationEnergy,
  DEFAULT_ACTIVATION_ENERGY,
} from "../domain/compliance.ts";

/*
 * The report builder of the signed-in app (issue 10): the subscription's reports, their
 * channels, threshold ranges and window, and each report's public link (create or regenerate,
 * pause, expiry, delete, views in the last 30 days). Everyone reads; Administrator and Manager
 * change (report.view / report.edit). Times are epoch seconds; threshold values are Celsius
 * for temperature channels (the form converts from the person's scale).
 */

/** Limits of one report: enough for any wall display, small enough for one chart. */
export const MAX_REPORT_CHANNELS = 20;
export const MAX_THRESHOLDS = 20;
export const MAX_NAME = 100;
/** A rolling window: one minute to ten years. */
export const MIN_INTERVAL = 60;
export const MAX_INTERVAL = 315_360_000;
/** Epoch seconds the portal accepts: 2000-01-01 to 2100-01-01. */
const MIN_EPOCH = 946_684_800;
const MAX_EPOCH = 4_102_444_800;

export const NAME_REQUIRED = "Enter a report name.";
export const NAME_TOO_LONG = `Report names are at most ${MAX_NAME} characters.`;
export const NAME_LINE = "Names are one line of text, without control characters.";
export const CHANNELS_REQUIRED = "Choose at least one channel.";
export const WINDOW_RULE = "Choose a rolling window or a start before the end.";
export const COLOR_RULE = "Colours are #rrggbb.";
export const EPOCH_RULE = "Must be a time in epoch seconds between 2000 and 2100.";
export const RANGE_SIDES = "Give a minimum, a maximum or both.";
export const RANGE_ORDER = "The minimum must not be above the maximum.";
export const REPEATED_CHANNEL = "Each channel once.";

const epochField = z
  .int({ error: EPOCH_RULE })
  .check(z.minimum(MIN_EPOCH, EPOCH_RULE), z.maximum(MAX_EPOCH, EPOCH_RULE));
export const colorField = z.string({ error: COLOR_RULE }).check(z.regex(/^#[0-9a-fA-F]{6}$/, COLOR_RULE));
const reportName = z
  .string({ error: NAME_REQUIRED })
  .check(
    z.trim(),
    z.minLength(1, NAME_REQUIRED),
    z.maxLength(MAX_NAME, NAME_TOO_LONG),
    z.refine(isOneLine, NAME_LINE),
  );
const finite = z.number().check(
  z.refine(Number.isFinite, "Must be a number."),
  z.refine((v) => Math.abs(v) < 1e9, "Too large."),
);

export const ReportChannelInput = z.strictObject({
  channelId: idField,
  color: colorField,
  /** 0 the left y axis, 1 the right. */
  axis: orDefault(z.int().check(z.minimum(0, "Axis is 0 or 1."), z.maximum(1, "Axis is 0 or 1.")), 0),
});

export const ThresholdInput = z
  .strictObject({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Name the range."),
        z.maxLength(MAX_NAME, NAME_TOO_LONG),
        z.refine(isOneLine, NAME_LINE),
      ),
    /** One of the report's channels, or null for all of them. */
    channelId: z.nullable(idField),
    minValue: z.nullable(finite),
    maxValue: z.nullable(finite),
    color: colorField,
  })
  .check(
    z.refine((t) => t.minValue !== null || t.maxValue !== null, { message: RANGE_SIDES, path: ["minValue"] }),
    z.refine((t) => t.minValue === null || t.maxValue === null || t.minValue <= t.maxValue, {
      message: RANGE_ORDER,
      path: ["maxValue"],
    }),
  );
export type ThresholdInput = z.infer<typeof ThresholdInput>;

/** A report as the form sends it: a rolling window (timeInterval > 0) or a fixed start and end. */
export const ReportInputSchema = z
  .strictObject({
    name: reportName,
    timeInterval: z
      .int({ error: WINDOW_RULE })
      .check(z.minimum(0, WINDOW_RULE), z.maximum(MAX_INTERVAL, "At most ten years.")),
    startDate: z.nullable(epochField),
    endDate: z.nullable(epochField),
    channels: z.array(ReportChannelInput, { error: CHANNELS_REQUIRED }).check(
      z.minLength(1, CHANNELS_REQUIRED),
      z.maxLength(MAX_REPORT_CHANNELS, `At most ${MAX_REPORT_CHANNELS} channels.`),
      z.refine((list) => new Set(list.map((c) => c.channelId)).size === list.length, REPEATED_CHANNEL),
    ),
    thresholds: z
      .array(ThresholdInput)
      .check(z.maxLength(MAX_THRESHOLDS, `At most ${MAX_THRESHOLDS} threshold ranges.`)),
    /** ΔH of the mean kinetic temperature, kJ/mol (src/domain/compliance.ts). */
    mktActivationEnergy: orDefault(
      z
        .number({ error: ACTIVATION_ENERGY_RULE })
        .check(z.refine((v) => checkActivationEnergy(v) === null, ACTIVATION_ENERGY_RULE)),
      DEFAULT_ACTIVATION_ENERGY,
    ),
  })
  .check(
    z.refine(
      (r) =>
        r.timeInterval > 0
          ? r.timeInterval >= MIN_INTERVAL
          : r.startDate !== null && r.endDate !== null && r.startDate < r.endDate,
      { message: WINDOW_RULE, path: ["timeInterval"] },
    ),
    z.refine(
      (r) =>
        r.thresholds.every(
          (t) => t.channelId === null || r.channels.some((c) => c.channelId === t.channelId),
        ),
      {
        message: "A threshold range names a channel the report does not show.",
        path: ["thresholds"],
      },
    ),
  );
export type ReportInput = z.infer<typeof ReportInputSchema>;

/** The public link's state: live, paused by its owner, or past its expiry. */
export const LINK_STATES = ["live", "paused", "expired"] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const ReportLinkSchema = z.object({
  publicHash: z.string(),
  expiresAt: z.nullable(z.int()),
  pausedAt: z.nullable(z.int()),
  state: z.enum(LINK_STATES),
});
export type ReportLink = z.infer<typeof ReportLinkSchema>;

/** One line of the report list. */
export const ReportSummarySchema = z.object({
  id: z.int(),
  name: z.string(),
  channelCount: z.int(),
  timeInterval: z.int(),
  startDate: z.nullable(z.int()),
  endDate: z.nullable(z.int()),
  /** null: not shared. */
  link: z.nullable(ReportLinkSchema),
  /** Opens of the public link in the last 30 days (the page's own refreshes not counted). */
  views30Days: z.int(),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

export const ReportDetailSchema = z.extend(ReportSummarySchema, {
  /** kJ/mol. */
  mktActivationEnergy: z.number(),
  channels: z.array(z.object({ channelId: z.int(), color: z.string(), axis: z.int() })),
  thresholds: z.array(
    z.object({
      id: z.int(),
      name: z.string(),
      channelId: z.nullable(z.int()),
      minValue: z.nullable(z.number()),
      maxValue: z.nullable(z.number()),
      color: z.string(),
    }),
  ),
});
export type ReportDetail = z.infer<typeof ReportDetailSchema>;

/** A channel the form may pick: its device, sensor and names. */
export const ChannelOptionSchema = z.object({
  channelId: z.int(),
  channelKey: z.string(),
  deviceId: z.int(),
  deviceName: z.string(),
  sensorName: z.string(),
  channelName: z.string(),
  kind: z.string(),
  units: z.nullable(z.string()),
});
export type ChannelOption = z.infer<typeof ChannelOptionSchema>;

export const listReports = endpoint({
  method: "get",
  path: "/api/v1/reports",
  host: "api",
  body: "none",
  request: undefined,
  response: z.array(ReportSummarySchema),
  summary:
    "The active subscription's reports by name: channels, window, public link state, views in the last 30 days.",
});

export const listReportChannels = endpoint({
  method: "get",
  path: "/api/v1/report-channels",
  host: "api",
  body: "none",
  request: undefined,
  response: z.array(ChannelOptionSchema),
  summary:
    "The channels of the active subscription's devices a report may show, by device, sensor and channel.",
});

export const getReport = endpoint({
  method: "get",
  path: "/api/v1/reports/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: ReportDetailSchema,
  summary:
    "One report of the active subscription with its channels, colours and threshold ranges (Celsius for temperatures).",
});

export const createReport = endpoint({
  method: "post",
  path: "/api/v1/reports",
  host: "api",
  body: "json",
  request: ReportInputSchema,
  response: ReportDetailSchema,
  summary: "Creates a report (not shared yet). Channels must be the subscription's own (404 otherwise).",
});

export const updateReport = endpoint({
  method: "patch",
  path: "/api/v1/reports/:id",
  host: "api",
  body: "json",
  request: ReportInputSchema,
  response: ReportDetailSchema,
  summary: "Replaces a report's name, window, channels and threshold ranges; its public link stays.",
});

export const deleteReport = endpoint({
  method: "delete",
  path: "/api/v1/reports/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ id: z.int() }),
  summary: "Deletes a report; its public link fails at once.",
});

export const createReportLink = endpoint({
  method: "post",
  path: "/api/v1/reports/:id/public-link",
  host: "api",
  body: "json",
  request: z.strictObject({ expiresAt: orDefault(z.nullable(epochField), null) }),
  response: ReportSummarySchema,
  summary:
    "Shares the report under a new 256-bit token (again: regenerates it, the old link fails at once), live, with an optional expiry.",
});

export const updateReportLink = endpoint({
  method: "patch",
  path: "/api/v1/reports/:id/public-link",
  host: "api",
  body: "json",
  request: z.strictObject({
    paused: z.optional(z.boolean({ error: "paused is true or false." })),
    expiresAt: z.optional(z.nullable(epochField)),
  }),
  response: ReportSummarySchema,
  summary:
    "Pauses or resumes the public link, or sets or clears its expiry (a past expiry closes it at once); 404 when not shared.",
});

export const deleteReportLink = endpoint({
  method: "delete",
  path: "/api/v1/reports/:id/public-link",
  host: "api",
  body: "none",
  request: undefined,
  response: ReportSummarySchema,
  summary: "Stops sharing the report: the link fails at once.",
});
