import * as z from "zod/mini";
import { minutesOf, SEVERITIES } from "../domain/alerts.ts";
import { endpoint } from "./endpoint.ts";
import { channelKeyField, emailField, idField, orDefault, timezoneField } from "./fields.ts";

/*
 * Alerting (issue 34): rules, the alarms they raise, acknowledgements and deliveries. Thresholds
 * travel in the scale they name (temperatures), times as epoch seconds.
 */

/** The kinds of channel a device or tag rule may watch. */
export const CHANNEL_KINDS = [
  "temperature",
  "humidity",
  "dew_point",
  "heat_index",
  "voltage",
  "co2",
  "computed_analog",
] as const;

/** Rules' recipients: enough for a team and its escalation, small enough for one message each. */
export const MAX_RECIPIENTS = 20;
export const MAX_ESCALATION_TIERS = 3;
export const MAX_DELAY_SECONDS = 86_400;
export const MAX_GRACE_SECONDS = 86_400;

const number = (what: string) =>
  z
    .number({ error: `${what} must be a number.` })
    .check(z.refine(Number.isFinite, `${what} must be a number.`), z.minimum(-1e9), z.maximum(1e9));
const wholeIn = (what: string, min: number, max: number) =>
  z
    .int({ error: `${what} must be a whole number from ${min} to ${max}.` })
    .check(
      z.minimum(min, `${what} must be a whole number from ${min} to ${max}.`),
      z.maximum(max, `${what} must be a whole number from ${min} to ${max}.`),
    );

const webhookUrlField = z.string({ error: "A webhook URL must be text." }).check(
  z.trim(),
  z.maxLength(2000, "A webhook URL is at most 2000 characters."),
  z.refine((u) => {
    try {
      const url = new URL(u);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "A webhook URL must be an http:// or https:// address without a user name or password."),
);
const list = <T extends z.ZodMiniType>(item: T, what: string) =>
  z
    .array(item, { error: `${what} must be a list.` })
    .check(z.maxLength(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} ${what}.`));

export const NotifySchema = z.strictObject({
  userIds: orDefault(list(idField, "members"), []),
  emails: orDefault(list(emailField, "addresses"), []),
  webhookUrls: orDefault(list(webhookUrlField, "webhook URLs"), []),
});

const hhmm = z
  .string()
  .check(z.refine((v) => minutesOf(v) !== null, "Quiet hours are written HH:MM, such as 22:00."));

/**
 * What a rule watches for: above, below or outside (low and high in `scale` for temperatures, or
 * a report's threshold range), offline (graceSeconds past the push interval), stale, battery.
 * One object rather than a union of shapes: every field keeps its own message.
 */
export const ConditionSchema = z.strictObject({
  type: z.enum(["above", "below", "outside", "offline", "stale", "battery"], {
    error: "Choose a condition: above, below, outside, offline, stale or battery.",
  }),
  low: z.optional(z.nullable(number("The low limit"))),
  high: z.optional(z.nullable(number("The high limit"))),
  /** Instead of low and high: a threshold range the reports use. */
  thresholdRangeId: z.optional(z.nullable(idField)),
  scale: orDefault(z.enum(["F", "C"], { error: "Choose C or F." }), "F"),
  deadBand: orDefault(number("The dead band").check(z.minimum(0, "The dead band cannot be negative.")), 0),
  graceSeconds: orDefault(wholeIn("The grace", 0, MAX_GRACE_SECONDS), 300),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** A rule's fields, without defaults: a PATCH names only what it changes. */
const ruleFields = {
  name: z.string({ error: "Name the rule." }).check(
    z.trim(),
    z.minLength(1, "Name the rule."),
    z.maxLength(100, "A rule's name is at most 100 characters."),
    // It heads every message: a line break would start a line of the sender's choosing.
    z.refine((n) => ![...n].some((ch) => ch < " " || ch === "\u007f"), "A rule's name is one line of text."),
  ),
  severity: z.enum(SEVERITIES, { error: "Choose critical, warning or info." }),
  /** What it watches: one channel, or a device's or a tag's channels of channelKind (or devices). */
  channelKey: z.optional(z.nullable(channelKeyField)),
  deviceId: z.optional(z.nullable(idField)),
  tagId: z.optional(z.nullable(idField)),
  channelKind: z.optional(
    z.nullable(z.enum(CHANNEL_KINDS, { error: `Choose a kind of channel: ${CHANNEL_KINDS.join(", ")}.` })),
  ),
  condition: ConditionSchema,
  delaySeconds: wholeIn("The delay", 0, MAX_DELAY_SECONDS),
  delayReadings: wholeIn("The readings in a row", 1, 100),
  repeatMinutes: wholeIn("The repeat", 0, 1440),
  notify: NotifySchema,
  escalation: z
    .array(
      z.strictObject({
        afterMinutes: wholeIn("An escalation's minutes", 1, 10_080),
        userIds: orDefault(list(idField, "members"), []),
        emails: orDefault(list(emailField, "addresses"), []),
      }),
    )
    .check(z.maxLength(MAX_ESCALATION_TIERS, `At most ${MAX_ESCALATION_TIERS} escalation tiers.`)),
  quietHours: z.optional(z.nullable(z.strictObject({ from: hhmm, to: hhmm, timeZone: timezoneField }))),
  paused: z.boolean({ error: "paused is true or false." }),
  /** The tags of the rule itself (spec: alertTagList). */
  tagIds: list(idField, "tags"),
};

/** Every field optional (z.partial would also bring its own code into every page's shared chunk). */
function optionalAll<T extends Record<string, z.ZodMiniType>>(shape: T) {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, z.optional(v)])) as {
    [K in keyof T]: z.ZodMiniOptional<T[K]>;
  };
}

export const RuleInputSchema = z.strictObject({
  ...ruleFields,
  notify: orDefault(ruleFields.notify, { userIds: [], emails: [], webhookUrls: [] }),
  severity: orDefault(ruleFields.severity, "warning"),
  delaySeconds: orDefault(ruleFields.delaySeconds, 0),
  delayReadings: orDefault(ruleFields.delayReadings, 1),
  repeatMinutes: orDefault(ruleFields.repeatMinutes, 0),
  escalation: orDefault(ruleFields.escalation, []),
  paused: orDefault(ruleFields.paused, false),
  tagIds: orDefault(ruleFields.tagIds, []),
});
export type RuleInput = z.output<typeof RuleInputSchema>;

export const RuleSchema = z.object({
  id: z.number(),
  name: z.string(),
  severity: z.enum(SEVERITIES),
  kind: z.string(),
  channelKey: z.nullable(z.string()),
  /** The device of a channel rule's channel. */
  channelDeviceId: z.nullable(z.number()),
  deviceId: z.nullable(z.number()),
  tagId: z.nullable(z.number()),
  channelKind: z.nullable(z.string()),
  /** "Freezer 2 - Temperature", "Devices tagged Freezer". */
  watches: z.string(),
  condition: z.object({
    type: z.string(),
    low: z.nullable(z.number()),
    high: z.nullable(z.number()),
    scale: z.enum(["F", "C"]),
    deadBand: z.number(),
    graceSeconds: z.number(),
  }),
  delaySeconds: z.number(),
  delayReadings: z.number(),
  repeatMinutes: z.number(),
  notify: z.object({
    userIds: z.array(z.number()),
    emails: z.array(z.string()),
    webhookUrls: z.array(z.string()),
  }),
  escalation: z.array(
    z.object({ afterMinutes: z.number(), userIds: z.array(z.number()), emails: z.array(z.string()) }),
  ),
  quietHours: z.nullable(z.object({ from: z.string(), to: z.string(), timeZone: z.string() })),
  paused: z.boolean(),
  tagIds: z.array(z.number()),
  openAlarms: z.number(),
});
export type Rule = z.infer<typeof RuleSchema>;

export const listRules = endpoint({
  method: "get",
  path: "/api/v1/alerts/rules",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({
    rules: z.array(RuleSchema),
    alertCount: z.number(),
    alertLimit: z.nullable(z.number()),
  }),
  summary: "The active subscription's alert rules, with the count against the plan's alert limit.",
});

export const createRule = endpoint({
  method: "post",
  path: "/api/v1/alerts/rules",
  host: "api",
  body: "json",
  request: RuleInputSchema,
  response: RuleSchema,
  summary: "Adds a rule; 403 past the plan's alert limit.",
});

export const updateRule = endpoint({
  method: "patch",
  path: "/api/v1/alerts/rules/:id",
  host: "api",
  body: "json",
  request: z.strictObject(optionalAll(ruleFields)),
  response: RuleSchema,
  summary: "Changes the fields sent (pausing is {paused: true}); the rule is checked whole again.",
});

export const deleteRule = endpoint({
  method: "delete",
  path: "/api/v1/alerts/rules/:id",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ id: z.number() }),
  summary: "Deletes a rule; its open alarms clear, their history stays.",
});

export const muteDevice = endpoint({
  method: "post",
  path: "/api/v1/alerts/devices/:deviceId/mute",
  host: "api",
  body: "json",
  request: z.strictObject({ minutes: wholeIn("The minutes", 0, 10_080) }),
  response: z.object({ deviceId: z.number(), mutedUntil: z.nullable(z.number()) }),
  summary: "Maintenance: no notifications for the device's alarms for the minutes given (0 ends it).",
});

export const webhookSecret = endpoint({
  method: "get",
  path: "/api/v1/alerts/webhook-secret",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ secret: z.string(), header: z.string() }),
  summary: "The subscription's webhook signing secret (made at first use).",
});
