import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { reportViews, reports } from "../db/schema/index.ts";
import { randomToken } from "../core/crypto.ts";
import { secondsOf } from "../core/time.ts";
import type { LinkState, ReportLink } from "../../src/api/reportBuilder.ts";

/*
 * A report's public link (issue 10): its state, sharing under a new token, pause, resume,
 * expiry, stopping, and the views it gets (one row per report per UTC day).
 */

export type ReportRow = typeof reports.$inferSelect;
const DAY_MS = 86_400_000;
/** Views are counted over the last 30 days, today included. */
const VIEW_DAYS = 30;

const dayOf = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
/** The first day (UTC midnight) of the last 30 days' views. */
export const viewsSince = (now: Date) => new Date(dayOf(now).getTime() - (VIEW_DAYS - 1) * DAY_MS);
export const epochOrNull = (d: Date | null) => (d ? secondsOf(d) : null);

/** The link's state at `now`; a paused link reads paused even after its expiry. */
export function linkStateOf(row: Pick<ReportRow, "pausedAt" | "expiresAt">, now: Date): LinkState {
  if (row.pausedAt) return "paused";
  return row.expiresAt && row.expiresAt <= now ? "expired" : "live";
}

export function linkOf(row: ReportRow, now: Date): ReportLink | null {
  if (!row.publicHash) return null;
  return {
    publicHash: row.publicHash,
    expiresAt: epochOrNull(row.expiresAt),
    pausedAt: epochOrNull(row.pausedAt),
    state: linkStateOf(row, now),
  };
}

/**
 * Shares the report under a new token (256 bits), live, with the given expiry. Sharing again
 * replaces the token in the same statement, so the old link fails at once.
 */
export async function shareReport(db: Db, id: number, expiresAt: Date | null) {
  await db
    .update(reports)
    .set({ publicHash: randomToken(32), pausedAt: null, expiresAt })
    .where(eq(reports.id, id));
}

/** Pauses, resumes, or changes the expiry of a shared report's link. */
export async function changeReportLink(
  db: Db,
  id: number,
  change: { pausedAt: Date | null | undefined; expiresAt: Date | null | undefined },
) {
  const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  if (!Object.keys(set).length) return;
  await db.update(reports).set(set).where(eq(reports.id, id));
}

/** Stops sharing: the token, pause and expiry go; the link fails at once. */
export async function unshareReport(db: Db, id: number) {
  await db
    .update(reports)
    .set({ publicHash: null, pausedAt: null, expiresAt: null })
    .where(eq(reports.id, id));
}

/**
 * Counts one view of a report's public link: one upsert of today's row (UTC), so a busy
 * link costs one small write per view and the list sums at most 30 rows per report.
 */
export async function countReportView(db: Db, reportId: number, now: Date) {
  await db
    .insert(reportViews)
    .values({ reportId, day: dayOf(now), views: 1 })
    .onConflictDoUpdate({
      target: [reportViews.reportId, reportViews.day],
      set: { views: sql`${reportViews.views} + 1` },
    });
}
