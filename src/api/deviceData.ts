import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { isRealIsoMoment, MAX_ID } from "./fields.ts";

/*
 * A device's readings read back by people: its channel list, its history for the explore
 * page and its CSV download. Times are epoch seconds; values are Celsius for temperatures.
 */

const epoch = z.int();

export const ChannelListEntrySchema = z.object({
  channelKey: z.string(),
  /** "Cold Room - Temperature": the sensor's label (or type) and the channel's name. */
  name: z.string(),
  sensorLabel: z.string(),
  channelName: z.string(),
  kind: z.string(),
  units: z.nullable(z.string()),
  isHidden: z.boolean(),
});
export type ChannelListEntry = z.infer<typeof ChannelListEntrySchema>;

export const getChannelList = endpoint({
  method: "get",
  path: "/api/v1/alerts/channel-list/:deviceId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ channelList: z.array(ChannelListEntrySchema) }),
  summary: "The device's channels with their names, in dashboard order.",
});

const isoTime = (field: string) =>
  z.optional(
    z
      .string()
      .check(
        z.refine(
          (v) =>
            /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/.test(v) && isRealIsoMoment(v),
          `${field} must be an ISO date and time such as 2026-11-22T12:00:00Z.`,
        ),
      ),
  );
export const DEFAULT_CSV_NAME = "device-data.csv";
export const downloadDeviceData = endpoint({
  method: "get",
  path: "/devices/data/download-device-data-by-date-range/:deviceId",
  host: "web",
  body: "query",
  request: z.object({ startTime: isoTime("Start time"), endTime: isoTime("End time") }),
  response: z.string(),
  summary:
    "The device's readings as text/csv (streamed): 'Time (UTC)' then a column per channel ('Cold Room - Temperature (°C)'), one row per time; the last 24 hours by default. Needs the plan's CSV export feature; the start is held to the plan's data-age limit (the file name says the dates served).",
});

const epochQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= MAX_ID, `${field} must be epoch seconds.`)),
  );
export const getChannelHistory = endpoint({
  method: "get",
  path: "/api/v1/device-data/channel-history/:channelKey",
  host: "api",
  body: "query",
  request: z.object({ start: epochQuery("start"), end: epochQuery("end") }),
  response: z.object({
    channel: ChannelListEntrySchema,
    deviceId: z.int(),
    deviceName: z.string(),
    start: epoch,
    end: epoch,
    /** 0 for raw samples; else the bucket width whose min and max each point pair is. */
    bucketSeconds: z.int(),
    /** [epoch seconds, value], oldest first, at most 3000 (Celsius for temperatures). */
    points: z.array(z.tuple([epoch, z.number()])),
  }),
  summary:
    "A channel's history for the explore page (last 24 hours by default), at most 3000 points: raw, or each bucket's min and max. The start is held to the plan's data-age limit, and start/end say the window served.",
});
