// Alarms (issue 34): what a rule raised, its history and deliveries, and acknowledging it in the
// app or from the emailed link. The rules that raise them: ./alerts.ts.
import * as z from "zod/mini";
import { SEVERITIES } from "../domain/alerts.ts";
import { isPlainText } from "../domain/plainText.ts";
import { endpoint } from "./endpoint.ts";
import { MAX_ID, orDefault } from "./fields.ts";

export const MAX_NOTE = 1000;
export const NOTE_REQUIRED = "Write a note saying what was done.";
export const NOTE_TOO_LONG = `A note is at most ${MAX_NOTE} characters.`;
export const NOTE_CONTROL = "A note is plain text: line breaks, but no other control characters.";
export const ALREADY_CLEARED = "This alarm has cleared; there is nothing to acknowledge.";
export const ALREADY_ACKNOWLEDGED = "This alarm was already acknowledged.";
export const NOT_YET_TRIGGERED = "This alarm has not triggered yet.";

export const AlarmSchema = z.object({
  id: z.number(),
  ruleId: z.nullable(z.number()),
  ruleName: z.string(),
  kind: z.string(),
  severity: z.enum(SEVERITIES),
  state: z.enum(["pending", "triggered", "acknowledged", "cleared"]),
  deviceId: z.number(),
  deviceName: z.string(),
  channelKey: z.nullable(z.string()),
  channelName: z.nullable(z.string()),
  /** The reading in the caller's scale, and the line it crossed. */
  valueText: z.string(),
  limitText: z.nullable(z.string()),
  since: z.number(),
  triggeredAt: z.nullable(z.number()),
  acknowledgedAt: z.nullable(z.number()),
  acknowledgedBy: z.nullable(z.string()),
  clearedAt: z.nullable(z.number()),
});
export type Alarm = z.infer<typeof AlarmSchema>;

export const AlarmEventSchema = z.object({
  kind: z.string(),
  at: z.number(),
  valueText: z.nullable(z.string()),
  by: z.nullable(z.string()),
  note: z.nullable(z.string()),
  /** ALERT_COMMENT (7) for an acknowledgement's note, ALERT (1) for the rest. */
  entityType: z.number(),
});
export const DeliverySchema = z.object({
  id: z.number(),
  event: z.string(),
  channel: z.enum(["email", "webhook"]),
  recipient: z.string(),
  state: z.enum(["queued", "sent", "failed"]),
  attempts: z.array(z.object({ at: z.number(), ok: z.boolean(), detail: z.string() })),
  sentAt: z.nullable(z.number()),
  nextAttemptAt: z.nullable(z.number()),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const listAlarms = endpoint({
  method: "get",
  path: "/api/v1/alerts",
  host: "api",
  body: "query",
  request: z.object({
    state: orDefault(z.enum(["active", "all"], { error: "state is active or all." }), "active"),
    /** A device's id, as the query string carries it. */
    deviceId: z.optional(
      z
        .string()
        .check(
          z.refine((v) => /^[1-9]\d{0,9}$/.test(v) && Number(v) <= MAX_ID, "deviceId must be a device's id."),
        ),
    ),
  }),
  response: z.object({ alarms: z.array(AlarmSchema) }),
  summary:
    "Alarms, active first then newest (state=active: triggered and acknowledged only; all: the last 500).",
});

export const getAlarm = endpoint({
  method: "get",
  path: "/api/v1/alerts/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({
    alarm: AlarmSchema,
    history: z.array(AlarmEventSchema),
    deliveries: z.array(DeliverySchema),
  }),
  summary: "One alarm with its history and its delivery log.",
});

const noteField = z
  .string({ error: NOTE_REQUIRED })
  .check(
    z.trim(),
    z.minLength(1, NOTE_REQUIRED),
    z.maxLength(MAX_NOTE, NOTE_TOO_LONG),
    z.refine(isPlainText, NOTE_CONTROL),
  );

export const acknowledgeAlarm = endpoint({
  method: "post",
  path: "/api/v1/alerts/:id/acknowledge",
  host: "api",
  body: "json",
  request: z.strictObject({ note: noteField }),
  response: AlarmSchema,
  summary:
    "Acknowledges a triggered alarm with a note (kept as its ALERT_COMMENT); repeats and escalation stop.",
});

/** The emailed acknowledge link: what it is about (a GET changes nothing, so scanners do no harm). */
export const alarmByLink = endpoint({
  method: "get",
  path: "/api/v1/alerts/by-link",
  host: "api",
  body: "query",
  request: z.object({ token: orDefault(z.string(), "") }),
  response: z.object({ alarm: AlarmSchema, recipient: z.string() }),
  summary: "The alarm an acknowledge link is for, while it is open.",
});

export const acknowledgeByLink = endpoint({
  method: "post",
  path: "/api/v1/alerts/by-link/acknowledge",
  host: "api",
  body: "json",
  request: z.strictObject({ token: orDefault(z.string(), ""), note: noteField }),
  response: AlarmSchema,
  summary: "Acknowledges the alarm of an emailed link, as the address it was sent to.",
});
