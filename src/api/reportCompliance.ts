import * as z from "zod/mini";
import { MAX_ID } from "./fields.ts";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";

/*
 * A shared report's compliance figures (issue 36), read from every raw reading of the window
 * (src/domain/compliance.ts): per channel the mean kinetic temperature (temperatures only),
 * minimum and maximum with their times, time in each threshold range, the excursions and the
 * longest. Values in Celsius for temperatures, as the chart data; times in epoch seconds.
 */

const epoch = z.int();
const ExtremeSchema = z.nullable(z.object({ value: z.number(), at: epoch }));
const StretchSchema = z.object({ start: epoch, end: epoch, duration: z.number() });

export const ChannelComplianceSchema = z.object({
  channelId: z.int(),
  channelKey: z.string(),
  readings: z.int(),
  /** Seconds the readings cover (each reading until the next, within the chart's gap). */
  seconds: z.number(),
  /** °C; null for other kinds of channel or without readings. */
  mkt: z.nullable(z.number()),
  min: ExtremeSchema,
  max: ExtremeSchema,
  ranges: z.array(
    z.object({
      thresholdRangeId: z.int(),
      seconds: z.number(),
      excursions: z.int(),
      longest: z.nullable(StretchSchema),
    }),
  ),
  excursions: z.int(),
  longest: z.nullable(z.extend(StretchSchema, { thresholdRangeId: z.int() })),
});
export type ChannelCompliance = z.infer<typeof ChannelComplianceSchema>;

export const ReportComplianceSchema = z.object({
  start: epoch,
  end: epoch,
  /** ΔH, kJ/mol, the report's own. */
  activationEnergy: z.number(),
  channels: z.array(ChannelComplianceSchema),
});
export type ReportCompliance = z.infer<typeof ReportComplianceSchema>;

const epochQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= MAX_ID, `${field} must be epoch seconds.`)),
  );

export const getReportCompliance = endpoint({
  method: "get",
  path: PUBLIC_API.reportCompliance,
  host: "api",
  body: "query",
  request: z.object({ start: epochQuery("start"), end: epochQuery("end") }),
  response: ReportComplianceSchema,
  summary:
    "A shared report's compliance figures from every reading of the window: per channel the mean kinetic temperature (temperatures, with the report's activation energy), minimum and maximum with their times, time in each threshold range, the excursions and the longest. Celsius for temperatures. start and end (epoch seconds) default to the report's window and are clipped to it.",
});
