// Retention by plan (docs/decisions.md, "Retention by plan"): how far back a subscription's
// plan lets anyone see its readings, the window a read is held to, and which whole months of
// readings no plan may see any more. Epoch seconds throughout; `now` is passed in.
import type { TimeWindow } from "./reportWindow.ts";

const DAY = 86_400;
const FIXED_SECONDS: Record<string, number> = { DAY, WEEK: 7 * DAY };
const CALENDAR_MONTHS: Record<string, number> = { MONTH: 1, YEAR: 12 };
/** The fixed lengths a fractional month or year falls back to (the plan module's old rule). */
const FALLBACK_SECONDS: Record<string, number> = { MONTH: 30 * DAY, YEAR: 365 * DAY };

/** `at` moved back `months` calendar months in UTC, the day held to the month's last (31 March − 1 month = 28/29 February). */
export function monthsBefore(at: number, months: number): number {
  const d = new Date(at * 1000);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const moved = Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  );
  return moved / 1000 + (at - Math.floor(at));
}

/**
 * The oldest instant a plan lets anyone see at `now`: dataAgeLimitValue days or weeks back, or
 * that many calendar months or years back in UTC (a whole number of months; a fractional one
 * counts 30-day months and 365-day years); null when the plan sets no limit (unit or value
 * missing, unknown, zero or negative). Units may be plural and in any case.
 */
export function oldestVisible(limits: Readonly<Record<string, unknown>>, now: number): number | null {
  const unit = String(limits["dataAgeLimitUnit"] ?? "")
    .toUpperCase()
    .replace(/S$/, "");
  const value = Number(limits["dataAgeLimitValue"]);
  if (!Number.isFinite(value) || value <= 0) return null;
  const fixed = FIXED_SECONDS[unit];
  if (fixed) return now - fixed * value;
  const perUnit = CALENDAR_MONTHS[unit];
  if (!perUnit) return null;
  const months = perUnit * value;
  return Number.isInteger(months) ? monthsBefore(now, months) : now - FALLBACK_SECONDS[unit]! * value;
}

/**
 * A window held to the plan: it starts no earlier than `oldest`; one wholly older becomes the
 * empty window at `oldest` (nothing to read, never an older row). Unchanged without a limit.
 */
export function clampWindow(window: TimeWindow, oldest: number | null): TimeWindow {
  if (oldest === null || window.start >= oldest) return window;
  return { start: oldest, end: Math.max(window.end, oldest) };
}

/**
 * The instant before which no plan lets anyone see anything: the oldest of every plan's
 * oldestVisible. Null (keep everything) when any plan has no limit, or when there is no plan
 * at all (nothing to measure against).
 */
export function retentionCutoff(
  plans: readonly Readonly<Record<string, unknown>>[],
  now: number,
): number | null {
  let cutoff: number | null = null;
  for (const limits of plans) {
    const oldest = oldestVisible(limits, now);
    if (oldest === null) return null;
    cutoff = cutoff === null ? oldest : Math.min(cutoff, oldest);
  }
  return cutoff;
}

/** The first instant (UTC) of the month of `at`, epoch seconds. */
export function monthStartOf(at: number): number {
  const d = new Date(at * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

/**
 * Where the kept months begin: a monthly partition starting before this instant holds only
 * readings no plan may see and no push may still write (a push carries readings up to
 * `pushMaxAgeSeconds` old), so it may go whole. Always at or before the start of `now`'s month,
 * so the current and future months are never dropped; null when nothing may go.
 */
export function firstKeptMonth(cutoff: number | null, now: number, pushMaxAgeSeconds: number): number | null {
  if (cutoff === null) return null;
  return monthStartOf(Math.min(cutoff, now - pushMaxAgeSeconds, now));
}
