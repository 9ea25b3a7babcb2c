// Visitor subscriptions to a public report (issue 36): subscribers, their emailed links (only the
// tokens' hashes are kept) and the owner's count. SQL only; the flows decide.
import { and, count, eq, gt, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { reports, visitorLinks, visitorSubscribers } from "../db/schema/index.ts";
import { randomToken, sha256 } from "../core/crypto.ts";

export type SubscriberRow = typeof visitorSubscribers.$inferSelect;
export type LinkPurpose = "confirm" | "unsubscribe";

/** Locks the report's row: the cap is counted and a subscriber added under it, one at a time. */
export async function lockReport(tx: Db, reportId: number) {
  await tx.select({ id: reports.id }).from(reports).where(eq(reports.id, reportId)).for("update");
}

/**
 * The confirmed subscribers of a report: the owner's count, and what the cap counts. Pending
 * addresses hold no place, or a stranger could keep a report full with addresses nobody reads
 * (the attack review of 2026-11-29); the cap is checked again when one confirms.
 */
export async function confirmedCount(db: Db, reportId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(visitorSubscribers)
    .where(and(eq(visitorSubscribers.reportId, reportId), eq(visitorSubscribers.state, "confirmed")));
  return row?.n ?? 0;
}

/** The address's row for the report, if any. */
export async function subscriberOf(tx: Db, reportId: number, email: string): Promise<SubscriberRow | null> {
  const [row] = await tx
    .select()
    .from(visitorSubscribers)
    .where(and(eq(visitorSubscribers.reportId, reportId), eq(visitorSubscribers.email, email)));
  return row ?? null;
}

/** A new pending subscriber, or the pending one given a new deadline. */
export async function pendingSubscriber(tx: Db, reportId: number, email: string, confirmBy: Date) {
  const [row] = await tx
    .insert(visitorSubscribers)
    .values({ reportId, email, state: "pending", confirmBy })
    .onConflictDoUpdate({
      target: [visitorSubscribers.reportId, visitorSubscribers.email],
      set: { confirmBy },
      setWhere: eq(visitorSubscribers.state, "pending"),
    })
    .returning();
  return row!;
}

/** Issues an emailed link for a subscriber; returns the token (only its hash is stored). */
export async function issueLink(tx: Db, subscriberId: number, purpose: LinkPurpose, expiresAt: Date) {
  const token = randomToken();
  await tx.insert(visitorLinks).values({ tokenHash: sha256(token), subscriberId, purpose, expiresAt });
  return token;
}

/** The subscriber and report a working link is for, or null (unknown, expired, wrong purpose). */
export async function linkTarget(db: Db, token: string, purpose: LinkPurpose, now: Date) {
  if (!token) return null;
  const [row] = await db
    .select({
      subscriber: visitorSubscribers,
      reportName: reports.name,
      publicHash: reports.publicHash,
      subscriptionId: reports.subscriptionId,
    })
    .from(visitorLinks)
    .innerJoin(visitorSubscribers, eq(visitorSubscribers.id, visitorLinks.subscriberId))
    .innerJoin(reports, eq(reports.id, visitorSubscribers.reportId))
    .where(
      and(
        eq(visitorLinks.tokenHash, sha256(token)),
        eq(visitorLinks.purpose, purpose),
        gt(visitorLinks.expiresAt, now),
        // A confirm link works only while the report's link opens (unsubscribing always works).
        purpose === "confirm" ? openLink(now) : undefined,
      ),
    );
  return row ?? null;
}

const openLink = (now: Date) =>
  and(
    isNotNull(reports.publicHash),
    isNull(reports.pausedAt),
    or(isNull(reports.expiresAt), gt(reports.expiresAt, now)),
    eq(reports.visitorsMaySubscribe, true),
  );

/** Confirms a pending subscriber; its confirm links are used up. True when this call confirmed it. */
export async function confirmSubscriber(tx: Db, subscriberId: number, now: Date): Promise<boolean> {
  const done = await tx
    .update(visitorSubscribers)
    .set({ state: "confirmed", confirmedAt: now, confirmBy: null })
    .where(and(eq(visitorSubscribers.id, subscriberId), eq(visitorSubscribers.state, "pending")))
    .returning({ id: visitorSubscribers.id });
  // Its confirm links stay until they expire: opened again, the page says the address is
  // confirmed already and links the report, instead of a dead end (the newcomer's review).
  return done.length > 0;
}

/** Ends a subscription: the row, its links and its queued notices go. */
export async function deleteSubscriber(db: Db, subscriberId: number) {
  await db.delete(visitorSubscribers).where(eq(visitorSubscribers.id, subscriberId));
}

/** Pending subscribers whose confirm link expired unused: they hold no place and are forgotten. */
export async function forgetUnconfirmed(db: Db, now: Date) {
  await db
    .delete(visitorSubscribers)
    .where(and(eq(visitorSubscribers.state, "pending"), lt(visitorSubscribers.confirmBy, now)));
  await db.delete(visitorLinks).where(lt(visitorLinks.expiresAt, now));
}

/** Whether a report takes subscriptions, and its id's subscription (for the owner's checks). */
export async function visitorSettingsOf(db: Db, reportId: number) {
  const [row] = await db
    .select({ subscriptionId: reports.subscriptionId, visitorsMaySubscribe: reports.visitorsMaySubscribe })
    .from(reports)
    .where(eq(reports.id, reportId));
  return row ?? null;
}

/** Turns a report's visitor subscriptions on or off. */
export async function setVisitorsMaySubscribe(db: Db, reportId: number, on: boolean) {
  await db.update(reports).set({ visitorsMaySubscribe: on }).where(eq(reports.id, reportId));
}
