// The messages a visitor subscribed to a public report gets (issue 36): what happened, where and
// when in UTC, the report's link and an unsubscribe link (also as RFC 8058 one-click headers).
// No acknowledgement notes, no people's names: the visitor is not a member of the account.
import type { Mail } from "./mail.ts";
import { formatDateTime } from "../../src/domain/dates.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";

/** One alarm move as a visitor reads it. */
export interface VisitorEvent {
  kind: string;
  at: Date;
  deviceName: string;
  channelName: string | null;
}

export interface Links {
  /** Where the public report and the confirm/unsubscribe pages live. */
  origin: string;
  publicHash: string;
}

const WHAT: Record<string, string> = { triggered: "ALARM", cleared: "CLEARED" };
const utc = (d: Date) => `${formatDateTime(Math.floor(d.getTime() / 1000) as EpochSeconds, "UTC")} UTC`;
const where = (e: VisitorEvent) => (e.channelName ? `${e.deviceName} - ${e.channelName}` : e.deviceName);

/** "ALARM: Freezer 2 - Temperature, Nov 29, 2026, 12:00 PM UTC" */
export function eventLine(e: VisitorEvent): string {
  const what = e.kind === "triggered" ? "an alarm triggered on" : "the alarm cleared on";
  return `${WHAT[e.kind] ?? e.kind}: ${what} ${where(e)} at ${utc(e.at)}.`;
}

/** The unsubscribe page's link and the one-click address (the mailer makes the RFC 8058 headers). */
function unsubscribeParts(origin: string, token: string) {
  return {
    page: `${origin}/visitors/unsubscribe?token=${token}`,
    oneClick: `${origin}/api/v1/visitor-subscriptions/one-click/${token}`,
  };
}

/** The message of one or more moves of a report's alarms; several make a digest of the window. */
export function noticeMail(input: {
  to: string;
  reportName: string;
  events: readonly VisitorEvent[];
  links: Links;
  unsubscribeToken: string;
}): Mail {
  const { events, links } = input;
  const unsub = unsubscribeParts(links.origin, input.unsubscribeToken);
  const first = events[0]!;
  const subject =
    events.length === 1
      ? `[${WHAT[first.kind] ?? first.kind}] ${input.reportName}: ${where(first)}`
      : `[${input.reportName}] ${events.length} alarm changes`;
  const intro =
    events.length === 1
      ? `On the report "${input.reportName}":`
      : `On the report "${input.reportName}", in the last minutes (at most one message every 10 minutes):`;
  const text = [
    intro,
    "",
    ...events.map(eventLine),
    "",
    `The report: ${links.origin}/public/report/${links.publicHash}`,
    "",
    "You get this because you subscribed to this report's alarms.",
    `Unsubscribe (one click on the page): ${unsub.page}`,
  ].join("\n");
  return { to: input.to, subject, text, unsubscribeUrl: unsub.oneClick };
}

/**
 * The double opt-in: a link to a page whose button confirms. The link names its report's
 * public hash too, so once it has expired its page can still lead back to the report to
 * subscribe again (the row behind the token says nothing any more).
 */
export function confirmMail(input: {
  to: string;
  reportName: string;
  origin: string;
  token: string;
  until: Date;
  publicHash: string;
}): Mail {
  return {
    to: input.to,
    subject: `Confirm alarm messages for "${input.reportName}"`,
    text: [
      `Someone (we hope you) asked for a message whenever an alarm triggers or clears on the report "${input.reportName}".`,
      "",
      "To start them, open this link and press Confirm:",
      `${input.origin}/visitors/confirm?token=${input.token}&report=${encodeURIComponent(input.publicHash)}`,
      "",
      `The link works until ${utc(input.until)}. If you did not ask, ignore this message: nothing will be sent.`,
    ].join("\n"),
    secretUntil: input.until,
  };
}

/** To an address that is already subscribed and asked again: how to stop, nothing else. */
export function alreadyMail(input: { to: string; reportName: string; origin: string; token: string }): Mail {
  const unsub = unsubscribeParts(input.origin, input.token);
  return {
    to: input.to,
    subject: `You already get alarm messages for "${input.reportName}"`,
    text: [
      `This address already gets a message whenever an alarm triggers or clears on the report "${input.reportName}".`,
      "",
      `To stop them: ${unsub.page}`,
    ].join("\n"),
    unsubscribeUrl: unsub.oneClick,
  };
}
