// A visitor subscribing to a public report's alarms (issue 36): double opt-in by an emailed link
// whose page has the button, the same answer whether or not the address was subscribed, limits
// per address, per client and per report. Unsubscribing works from every message's link.
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { inTransaction, type Db } from "../db/client.ts";
import type { AuditEntry } from "../data/audit.ts";
import { audited } from "./audited.ts";
import { maskedAddress } from "../../src/domain/auditValues.ts";
import { publicReportPath } from "../../src/domain/paths.ts";
import { consume, type Limit } from "../data/rateLimits.ts";
import { reportByPublicHash } from "../data/reports.ts";
import {
  confirmSubscriber,
  confirmedCount,
  deleteSubscriber,
  issueLink,
  linkTarget,
  lockReport,
  pendingSubscriber,
  subscriberOf,
  type LinkPurpose,
} from "../data/visitors.ts";
import type { Deps } from "../deps.ts";
import { pageLinkOrigin } from "../http/links.ts";
import { alreadyMail, confirmMail } from "../services/visitorMail.ts";
import { UNSUBSCRIBE_LINK_MS } from "./visitorNotices.ts";
import {
  CHECK_INBOX,
  ALREADY_CONFIRMED,
  CONFIRMED,
  linkUnusable,
  REPORT_FULL,
  SUBSCRIPTIONS_OFF,
  UNSUBSCRIBED,
} from "../../src/api/visitors.ts";

/** Confirmed subscribers a report may have (pending ones hold no place). */
export const MAX_SUBSCRIBERS = 200;
/** How long a confirm link works. */
export const CONFIRM_LINK_MS = 48 * 3_600_000;
/** Subscribe requests per client (an address, an IPv6 /64) per hour, over all reports. */
export const CLIENT_LIMIT = { max: 10, windowSeconds: 3600 };
/** Subscribe requests per email address per hour, over all reports: nobody floods an inbox. */
export const ADDRESS_LIMIT = { max: 3, windowSeconds: 3600 };

const clientLimit = (client: string): Limit => ({
  key: `visitor-subscribe-client:${client}`,
  ...CLIENT_LIMIT,
});
const addressLimit = (email: string): Limit => ({ key: `visitor-subscribe:${email}`, ...ADDRESS_LIMIT });

/** Whether the shared report at `hash` takes subscriptions (404 for a link that does not open). */
export async function subscriptionsOpen(deps: Deps, hash: string): Promise<boolean> {
  const report = await reportByPublicHash(deps.db, hash, deps.now());
  if (!report) throw new ApiError(404, NOT_FOUND);
  return report.visitorsMaySubscribe;
}

/**
 * Mails a confirm link (or, to an address already confirmed, a note with an unsubscribe
 * link) and answers CHECK_INBOX either way. A full report refuses every address alike.
 */
export async function subscribe(deps: Deps, hash: string, email: string, client: string): Promise<string> {
  const now = deps.now();
  const report = await reportByPublicHash(deps.db, hash, now);
  if (!report) throw new ApiError(404, NOT_FOUND);
  if (!report.visitorsMaySubscribe) throw new ApiError(403, [{ field: null, message: SUBSCRIPTIONS_OFF }]);
  await consume(deps.db, clientLimit(client), now, "email");
  await consume(deps.db, addressLimit(email), now, "email");
  const origin = pageLinkOrigin(deps.config);
  const mail = await inTransaction(deps.db, async (tx) => {
    await lockReport(tx, report.id);
    // Full: every address is refused alike (an answer that differed for subscribers would tell who they are).
    await refuseWhenFull(tx, report.id);
    const existing = await subscriberOf(tx, report.id, email);
    if (existing?.state === "confirmed") {
      const until = new Date(now.getTime() + UNSUBSCRIBE_LINK_MS);
      const token = await issueLink(tx, existing.id, "unsubscribe", until);
      return alreadyMail({ to: email, reportName: report.name, origin, token });
    }
    const until = new Date(now.getTime() + CONFIRM_LINK_MS);
    const row = await pendingSubscriber(tx, report.id, email, until);
    const token = await issueLink(tx, row.id, "confirm", until);
    return confirmMail({ to: email, reportName: report.name, origin, token, until, publicHash: hash });
  });
  await deps.mailer.send(mail);
  return CHECK_INBOX;
}

/** Under the report's lock: a report with MAX_SUBSCRIBERS confirmed takes no one more. */
async function refuseWhenFull(tx: Db, reportId: number) {
  if ((await confirmedCount(tx, reportId)) >= MAX_SUBSCRIBERS)
    throw new ApiError(409, [{ field: null, message: REPORT_FULL }]);
}

/** What a link is for (its page shows it before the button); opening it changes nothing. */
export async function linkInfo(deps: Deps, token: string, purpose: LinkPurpose) {
  const target = await linkTarget(deps.db, token, purpose, deps.now());
  if (!target) throw new ApiError(404, [{ field: null, message: linkUnusable(purpose) }]);
  const info = { reportName: target.reportName, email: target.subscriber.email };
  if (purpose !== "confirm" || target.subscriber.state !== "confirmed") return info;
  return { ...info, confirmed: true as const, reportPath: publicReportPath(target.publicHash ?? "") };
}

/**
 * A visitor's confirmed subscription as the owner's trail names it: by the masked address
 * (docs/decisions.md). Pending ones are never recorded: anyone may start one.
 */
const visitorEntry = (
  target: { subscriptionId: number; subscriber: { reportId: number; email: string } },
  action: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditEntry => {
  return {
    subscriptionId: target.subscriptionId,
    actor: { kind: "visitor", label: maskedAddress(target.subscriber.email) },
    action,
    entityId: target.subscriber.reportId,
    before,
    after,
  };
};

/** The confirm page's button: the subscriber is confirmed (and recorded) and the link used up. */
export async function confirmByLink(
  deps: Deps,
  token: string,
): Promise<{ message: string; reportPath: string }> {
  const { target: confirmedOn, again } = await audited(
    deps,
    async (tx) => {
      const target = await linkTarget(tx, token, "confirm", deps.now());
      if (!target) throw new ApiError(404, [{ field: null, message: linkUnusable("confirm") }]);
      // Pressed again (a second tab, the link opened later): nothing to do, and it says so.
      if (target.subscriber.state === "confirmed") return { target, confirmed: false, again: true };
      await lockReport(tx, target.subscriber.reportId);
      await refuseWhenFull(tx, target.subscriber.reportId);
      const confirmed = await confirmSubscriber(tx, target.subscriber.id, deps.now());
      return { target, confirmed, again: !confirmed };
    },
    (done) =>
      done.confirmed
        ? visitorEntry(done.target, "report.visitor.confirm", { state: "pending" }, { state: "confirmed" })
        : null,
  );
  // The link opens only while the report's link does, so the report has its hash here.
  return {
    message: again ? ALREADY_CONFIRMED : CONFIRMED,
    reportPath: publicReportPath(confirmedOn.publicHash ?? ""),
  };
}

/** The unsubscribe page's button, or a mail client's one-click POST: the subscription ends. */
export async function unsubscribeByLink(
  deps: Deps,
  token: string,
): Promise<{ message: string; reportPath?: string }> {
  const gone = await audited(
    deps,
    async (tx) => {
      const target = await linkTarget(tx, token, "unsubscribe", deps.now());
      if (!target) throw new ApiError(404, [{ field: null, message: linkUnusable("unsubscribe") }]);
      await deleteSubscriber(tx, target.subscriber.id);
      return target;
    },
    (target) =>
      target.subscriber.state === "confirmed"
        ? visitorEntry(target, "report.visitor.unsubscribe", { state: "confirmed" }, null)
        : null,
  );
  // The way back to the report, while its link is shared.
  return gone.publicHash
    ? { message: UNSUBSCRIBED, reportPath: publicReportPath(gone.publicHash) }
    : { message: UNSUBSCRIBED };
}
