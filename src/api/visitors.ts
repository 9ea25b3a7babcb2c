import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField, orDefault, tokenField } from "./fields.ts";

/*
 * Visitors of a public report who ask to hear of its alarms (issue 36), the owner's side of it,
 * and the links' status badges. Every answer to "subscribe" reads the same whether or not the
 * address was already subscribed: nobody learns who follows a report.
 */

export const CHECK_INBOX = "Check your inbox to confirm your subscription.";
export const SUBSCRIPTIONS_OFF = "This report does not take subscriptions.";
export const REPORT_FULL = "This report has as many subscribers as it can take.";
/** A spent or expired link, in the words of what the person came to do (a newcomer's review). */
export const CONFIRM_UNUSABLE =
  "This confirmation link was used already or has expired. If no messages come, ask again on the report's page.";
export const UNSUBSCRIBE_UNUSABLE =
  "This unsubscribe link does not work any more; the address may be unsubscribed already. Every message carries a link of its own.";
export const linkUnusable = (purpose: "confirm" | "unsubscribe") =>
  purpose === "confirm" ? CONFIRM_UNUSABLE : UNSUBSCRIBE_UNUSABLE;
export const CONFIRMED = "You are subscribed. Each message has a link to unsubscribe.";
/** A confirm link opened again after it did its work (a newcomer's review: it read as a dead end). */
export const ALREADY_CONFIRMED =
  "This address is confirmed already: you are subscribed. Each message has a link to unsubscribe.";
export const UNSUBSCRIBED = "You are unsubscribed and will get no more messages about this report.";

/** What a confirm or unsubscribe link is for, shown before its button is pressed. */
const LinkSchema = z.object({
  reportName: z.string(),
  email: z.string(),
  /** A confirm link of an address confirmed already: the page says so and links the report. */
  confirmed: z.optional(z.literal(true)),
  reportPath: z.optional(z.string()),
});

export const subscriptionStatus = endpoint({
  method: "get",
  path: "/api/v1/device-data/public/report/:hash/subscriptions",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ open: z.boolean() }),
  summary: "Whether a shared report's visitors may subscribe to its alarms (the page shows the form then).",
});

export const subscribeToReport = endpoint({
  method: "post",
  path: "/api/v1/device-data/public/report/:hash/subscriptions",
  host: "api",
  body: "json",
  request: z.strictObject({ email: emailField }),
  response: z.object({ message: z.string() }),
  summary:
    "Asks for alarm messages of a shared report: mails a confirm link (double opt-in). The answer is the same for an address already subscribed. Limited per address and per client, and capped per report.",
});

export const confirmLink = endpoint({
  method: "get",
  path: "/api/v1/visitor-subscriptions/confirm",
  host: "api",
  body: "query",
  request: z.object({ token: tokenField }),
  response: LinkSchema,
  summary:
    "What an emailed confirm link is for; opening it changes nothing (a mail scanner confirms nothing).",
});

export const confirmSubscription = endpoint({
  method: "post",
  path: "/api/v1/visitor-subscriptions/confirm",
  host: "api",
  body: "json",
  request: z.strictObject({ token: tokenField }),
  // The report's page, for the confirmed page's way back (its alarm messages carry it too).
  response: z.object({ message: z.string(), reportPath: z.string() }),
  summary: "Confirms a subscription: the confirm page's button. Answers the shared report's page.",
});

export const unsubscribeLink = endpoint({
  method: "get",
  path: "/api/v1/visitor-subscriptions/unsubscribe",
  host: "api",
  body: "query",
  request: z.object({ token: tokenField }),
  response: LinkSchema,
  summary: "What an emailed unsubscribe link is for; opening it changes nothing.",
});

export const unsubscribe = endpoint({
  method: "post",
  path: "/api/v1/visitor-subscriptions/unsubscribe",
  host: "api",
  body: "json",
  request: z.strictObject({ token: tokenField }),
  // The report's page while its link is shared: the unsubscribed page's way back to it.
  response: z.object({ message: z.string(), reportPath: z.optional(z.string()) }),
  summary: "Ends a subscription: the unsubscribe page's button.",
});

export const unsubscribeOneClick = endpoint({
  method: "post",
  path: "/api/v1/visitor-subscriptions/one-click/:token",
  host: "api",
  body: "form",
  request: z.object({ "List-Unsubscribe": orDefault(z.string(), "") }),
  response: z.object({ message: z.string() }),
  summary:
    "RFC 8058 one-click unsubscribe: the POST a mail client sends to the List-Unsubscribe address with List-Unsubscribe=One-Click.",
});

export const VisitorSettingsSchema = z.object({
  visitorsMaySubscribe: z.boolean(),
  /** Confirmed subscribers. */
  subscriberCount: z.int(),
});
export type VisitorSettings = z.infer<typeof VisitorSettingsSchema>;

export const getVisitorSettings = endpoint({
  method: "get",
  path: "/api/v1/reports/:id/visitors",
  host: "api",
  body: "none",
  request: undefined,
  response: VisitorSettingsSchema,
  summary: "A report's visitor subscriptions: whether they are on and how many confirmed subscribers it has.",
});

export const updateVisitorSettings = endpoint({
  method: "patch",
  path: "/api/v1/reports/:id/visitors",
  host: "api",
  body: "json",
  request: z.strictObject({ visitorsMaySubscribe: z.boolean({ error: "Choose on or off." }) }),
  response: VisitorSettingsSchema,
  summary:
    "Turns visitor subscriptions of a report on or off; off, no form shows and no messages are queued.",
});

export const reportBadge = endpoint({
  method: "get",
  path: "/public/report/:hash/badge.svg",
  host: "web",
  body: "none",
  request: undefined,
  response: z.string(),
  summary:
    "A shared report's status badge (image/svg+xml, at most 1 KB): its name and OK, alarm (an alarm open on its channels or their devices) or silent (a device overdue). Cached for at most 60 s; 404 once the link is deleted, paused or expired.",
});

export const deviceBadge = endpoint({
  method: "get",
  path: "/public/device/:hash/badge.svg",
  host: "web",
  body: "none",
  request: undefined,
  response: z.string(),
  summary:
    "A shared device's status badge (image/svg+xml, at most 1 KB): its name and OK, alarm or silent. Cached for at most 60 s; 404 once its public link is deleted.",
});
