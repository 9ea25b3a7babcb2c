import { eq, sql } from "drizzle-orm";
import { inTransaction, type Db } from "../db/client.ts";
import { reports, visitorSubscribers } from "../db/schema/index.ts";
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
  await inTransaction(db, async (tx) => {
    await tx
      .update(reports)
      .set({ publicHash: randomToken(32), pausedAt: null, expiresAt })
      .where(eq(reports.id, id));
    await forgetVisitors(tx, id);
  });
}

/**
 * Visitors subscribed to the link, not to the report: when the link is replaced or removed,
 * they go (with their emailed links and queued notices), or their next message would hand
 * them the new link the owner meant to keep from them (the attack review of 2026-11-29).
 */
async function forgetVisitors(tx: Db, reportId: number) {
  await tx.delete(visitorSubscribers).where(eq(visitorSubscribers.reportId, reportId));
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
  await inTransaction(db, async (tx) => {
    await tx
      .update(reports)
      .set({ publicHash: null, pausedAt: null, expiresAt: null })
      .where(eq(reports.id, id));
    await forgetVisitors(tx, id);
  });
}

/** Views of reports counted in memory, written together (see viewCounter). */
export interface ReportViewCounter {
  /** Counts one view of a report's public link at `now`. */
  count(reportId: number, now: Date): void;
  /** Writes the views counted so far (before the list shows them, and at shutdown). */
  flush(): Promise<void>;
  /** Views counted and not yet written (after a failed flush at shutdown: the ones lost). */
  readonly pending: number;
}

/** The longest wait between retries of a failed views write. */
const VIEWS_RETRY_MAX_MS = 60_000;

/**
 * Report views, batched: a busy public link would otherwise cost one write per visitor. Views
 * are kept in memory per report and UTC day and written within `everyMs` in one statement
 * (an upsert adding to today's row), before the report list reads them, and at shutdown. A
 * failed write keeps its views and is tried again, waiting twice as long each time (at most
 * a minute), with one warning per outage; a crash loses at most `everyMs` of counts. A write
 * whose answer is lost after it committed is tried again too: views are counted at least
 * once, never lost while the process runs.
 */
export function viewCounter(
  db: Db,
  everyMs = 1000,
  warn: (line: string) => void = (line) => console.warn(line),
): ReportViewCounter {
  let pending = new Map<string, { reportId: number; day: Date; views: number }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let failures = 0;

  const write = async () => {
    timer = undefined;
    if (!pending.size) return;
    const rows = [...pending.values()];
    pending = new Map();
    try {
      // Views of a report deleted meanwhile are dropped (join), not a failure of the batch.
      const values = sql.join(
        rows.map((r) => sql`(${r.reportId}::int, ${r.day.toISOString()}::timestamptz, ${r.views}::int)`),
        sql`, `,
      );
      await db.execute(sql`
        insert into report_views (report_id, day, views)
        select v.report_id, v.day, v.views from (values ${values}) as v(report_id, day, views)
        join reports r on r.id = v.report_id
        on conflict (report_id, day) do update set views = report_views.views + excluded.views`);
      failures = 0;
    } catch (e) {
      // The database is away (or gone): the views wait for the next write.
      for (const r of rows) add(r.reportId, r.day, r.views);
      failures++;
      if (failures === 1) {
        const views = rows.reduce((sum, r) => sum + r.views, 0);
        warn(
          JSON.stringify({
            level: "warn",
            what: "report views not written, kept to retry",
            views,
            error: String(e),
          }),
        );
      }
      schedule(Math.min(everyMs * 2 ** failures, VIEWS_RETRY_MAX_MS));
    }
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(write);
    return writing;
  };
  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => void flush(), ms);
    // A test or a stopping server is not kept alive by views waiting to be written.
    timer.unref();
  };
  const add = (reportId: number, day: Date, views: number) => {
    const key = `${reportId}:${day.getTime()}`;
    const row = pending.get(key);
    if (row) row.views += views;
    else pending.set(key, { reportId, day, views });
  };
  return {
    count(reportId, now) {
      add(reportId, dayOf(now), 1);
      schedule(everyMs);
    },
    flush,
    get pending() {
      let views = 0;
      for (const row of pending.values()) views += row.views;
      return views;
    },
  };
}
