import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField, idField, orDefault } from "./fields.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { CADENCES } from "../domain/cadence.ts";

/*
 * Scheduled reports (issue 36): a report mailed daily, weekly or monthly at a local hour to
 * members and outside addresses, as PDF, CSV or both, for the period just ended. Everyone who
 * sees reports sees the schedules and their delivery log; report editors change them.
 */

export const MAX_SCHEDULES = 5;
export const MAX_RECIPIENTS = 20;
/** Deliveries listed per schedule in the log. */
export const LOG_LENGTH = 20;

export const SCHEDULE_LIMIT = `A report has at most ${MAX_SCHEDULES} schedules; delete one to add another.`;
export const RECIPIENTS_REQUIRED = "Add at least one member or address.";
export const RECIPIENTS_TOO_MANY = `At most ${MAX_RECIPIENTS} recipients.`;
export const NOT_MEMBERS = "Choose members of this subscription.";
export const ZONE_RULE = "Choose a time zone.";
export const UNSUBSCRIBED = "You will no longer receive this report.";
export const UNSUBSCRIBE_GONE = "This unsubscribe link is no longer valid.";

const list = <T extends z.ZodMiniType>(item: T, what: string) =>
  z.array(item, { error: `${what} must be a list.` }).check(z.maxLength(MAX_RECIPIENTS, RECIPIENTS_TOO_MANY));

export const ScheduleInputSchema = z
  .strictObject({
    cadence: z.enum(CADENCES, { error: "Choose daily, weekly or monthly." }),
    hour: z
      .int({ error: "Choose an hour." })
      .check(z.minimum(0, "Hours are 0 to 23."), z.maximum(23, "Hours are 0 to 23.")),
    /** ISO weekday, 1 Monday to 7 Sunday (weekly only). */
    weekday: orDefault(
      z
        .int({ error: "Choose a weekday." })
        .check(z.minimum(1, "Weekdays are 1 to 7."), z.maximum(7, "Weekdays are 1 to 7.")),
      1,
    ),
    timeZone: z.string({ error: ZONE_RULE }).check(z.refine(isKnownTimezone, ZONE_RULE)),
    scale: z.enum(["F", "C"], { error: "Choose F or C." }),
    format: z.enum(["pdf", "csv", "both"], { error: "Choose PDF, CSV or both." }),
    userIds: orDefault(list(idField, "members"), []),
    emails: orDefault(list(emailField, "addresses"), []),
    paused: orDefault(z.boolean(), false),
  })
  .check(
    z.refine((s) => s.userIds.length + s.emails.length > 0, {
      message: RECIPIENTS_REQUIRED,
      path: ["emails"],
    }),
    z.refine((s) => s.userIds.length + new Set(s.emails).size <= MAX_RECIPIENTS, {
      message: RECIPIENTS_TOO_MANY,
      path: ["emails"],
    }),
  );
export type ScheduleInput = z.infer<typeof ScheduleInputSchema>;

export const DeliverySchema = z.object({
  runAt: z.number(),
  recipient: z.string(),
  state: z.enum(["queued", "sent", "failed"]),
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  sentAt: z.nullable(z.number()),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const ScheduleSchema = z.object({
  id: z.number(),
  reportId: z.number(),
  cadence: z.enum(CADENCES),
  hour: z.number(),
  weekday: z.number(),
  timeZone: z.string(),
  scale: z.enum(["F", "C"]),
  format: z.enum(["pdf", "csv", "both"]),
  userIds: z.array(z.number()),
  emails: z.array(z.string()),
  paused: z.boolean(),
  /** Epoch seconds of the next send. */
  nextRunAt: z.number(),
  /** The newest deliveries first. */
  deliveries: z.array(DeliverySchema),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const MemberSchema = z.object({ id: z.number(), name: z.string(), email: z.string() });
export type Member = z.infer<typeof MemberSchema>;

export const listSchedules = endpoint({
  method: "get",
  path: "/api/v1/reports/:id/schedules",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ schedules: z.array(ScheduleSchema), members: z.array(MemberSchema) }),
  summary: "A report's mail schedules with their latest deliveries, and the members who may receive them.",
});

export const createSchedule = endpoint({
  method: "post",
  path: "/api/v1/reports/:id/schedules",
  host: "api",
  body: "json",
  request: ScheduleInputSchema,
  response: ScheduleSchema,
  summary: `Mails the report on a schedule (at most ${MAX_SCHEDULES} per report, ${MAX_RECIPIENTS} recipients each).`,
});

export const updateSchedule = endpoint({
  method: "patch",
  path: "/api/v1/report-schedules/:id",
  host: "api",
  body: "json",
  request: ScheduleInputSchema,
  response: ScheduleSchema,
  summary: "Replaces a schedule's timing, format, recipients and pause; the next send is worked out again.",
});

export const deleteSchedule = endpoint({
  method: "delete",
  path: "/api/v1/report-schedules/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ id: z.int() }),
  summary: "Deletes a schedule and its delivery log.",
});
