import * as z from "zod/mini";
import { isOneLine } from "../domain/plainText.ts";
import { endpoint } from "./endpoint.ts";
import { channelKeyField, idField, MAX_ID } from "./fields.ts";

/*
 * The alarm story and pinned comments on the charts (issue 36). Alarms that touch a chart's
 * channels (and its devices' device alarms) with their triggered, acknowledged and cleared
 * times; comments pinned to a time on a channel. Everyone in the subscription reads (with
 * notes and names); Administrators and Managers pin and delete comments (chart.comment). A
 * public report shows that an alarm happened and was acknowledged, and its comments; notes and
 * names only when its owner chose to show them (showAlarmNotes). Times are epoch seconds;
 * value and limit in the channel's stored unit (Celsius for temperatures).
 */

export const MAX_COMMENT = 280;
export const COMMENT_REQUIRED = "Write a comment.";
export const COMMENT_TOO_LONG = `Comments are at most ${MAX_COMMENT} characters.`;
export const COMMENT_LINE = "A comment is one line of text, without control characters.";
export const COMMENT_TIME = "Choose a time on the chart.";

const epoch = z.int();

export const AlarmStorySchema = z.object({
  id: z.int(),
  /** The channel it is about; null for a device alarm (silent device, battery, stale sensor). */
  channelKey: z.nullable(z.string()),
  device: z.string(),
  rule: z.string(),
  /** above, below, outside, offline, stale, battery */
  kind: z.string(),
  triggeredAt: epoch,
  acknowledgedAt: z.nullable(epoch),
  /** Null on a public report unless its owner shows names and notes. */
  acknowledgedBy: z.nullable(z.string()),
  note: z.nullable(z.string()),
  clearedAt: z.nullable(epoch),
  value: z.nullable(z.number()),
  limit: z.nullable(z.number()),
});
export type AlarmStoryView = z.infer<typeof AlarmStorySchema>;

export const PinnedCommentSchema = z.object({
  id: z.int(),
  channelKey: z.string(),
  at: epoch,
  text: z.string(),
  /** Null on a public report unless its owner shows names. */
  author: z.nullable(z.string()),
});
export type PinnedCommentView = z.infer<typeof PinnedCommentSchema>;

export const ChartMarksSchema = z.object({
  alarms: z.array(AlarmStorySchema),
  comments: z.array(PinnedCommentSchema),
});
export type ChartMarksView = z.infer<typeof ChartMarksSchema>;

const epochQuery = (field: string) =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => /^\d{1,10}$/.test(v) && Number(v) <= MAX_ID, `${field} must be epoch seconds.`)),
  );
const windowQuery = z.object({ start: epochQuery("start"), end: epochQuery("end") });

export const getChannelMarks = endpoint({
  method: "get",
  path: "/api/v1/chart-marks/:channelKey",
  host: "api",
  body: "query",
  request: windowQuery,
  response: ChartMarksSchema,
  summary:
    "The alarms of a channel of the subscription and of its device, and the comments pinned to it, between start and end (default the last 24 hours), with notes and names.",
});

export const getPublicReportMarks = endpoint({
  method: "get",
  path: "/api/v1/device-data/public/report/marks/:hash",
  host: "api",
  body: "query",
  request: windowQuery,
  response: ChartMarksSchema,
  summary:
    "A shared report's alarms (its channels' and its devices') and comments in its window (start and end clipped to it); notes and names only when its owner shows them.",
});

export const addChartComment = endpoint({
  method: "post",
  path: "/api/v1/chart-comments",
  host: "api",
  body: "json",
  request: z.strictObject({
    channelKey: channelKeyField,
    at: z
      .int({ error: COMMENT_TIME })
      .check(z.minimum(946_684_800, COMMENT_TIME), z.maximum(4_102_444_800, COMMENT_TIME)),
    text: z
      .string({ error: COMMENT_REQUIRED })
      .check(
        z.trim(),
        z.minLength(1, COMMENT_REQUIRED),
        z.maxLength(MAX_COMMENT, COMMENT_TOO_LONG),
        z.refine(isOneLine, COMMENT_LINE),
      ),
  }),
  response: PinnedCommentSchema,
  summary:
    "Pins a comment (1-280 characters) to a time on a channel of the subscription (404 for another's).",
});

export const deleteChartComment = endpoint({
  method: "delete",
  path: "/api/v1/chart-comments/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ id: idField }),
  summary: "Deletes a pinned comment of the subscription.",
});

export const getReportAlarmNotes = endpoint({
  method: "get",
  path: "/api/v1/reports/:id/alarm-notes",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ show: z.boolean() }),
  summary:
    "Whether the report's public link shows alarm notes and the names of who acknowledged and commented.",
});

export const setReportAlarmNotes = endpoint({
  method: "patch",
  path: "/api/v1/reports/:id/alarm-notes",
  host: "api",
  body: "json",
  request: z.strictObject({ show: z.boolean({ error: "show is true or false." }) }),
  response: z.object({ show: z.boolean() }),
  summary: "Shows or hides alarm notes and names on the report's public link, PDF and picture.",
});
