import type { EpochSeconds } from "./brand.ts";
import { clampWindow, oldestVisible } from "./retention.ts";

/*
 * What a subscription's plan (its tier's feature flags and limits, spec section 3) allows on
 * the device pages. The server refuses with these messages; the page says the same thing
 * beside the control it disables.
 */

export type PlanFeature = "publicUrl" | "csvExport";

export const PLAN_MESSAGES: Record<PlanFeature, string> = {
  publicUrl: "Public device links are not included in your subscription plan.",
  csvExport: "Downloading device data is not included in your subscription plan.",
};

/** A shared report's CSV, refused to its visitors when the owner's plan has no CSV export. */
export const REPORT_CSV_MESSAGE = "Downloading this report's data is not included in its subscription plan.";

/** A feature is on only when the tier says true (a missing flag is off). */
export function planAllows(features: Readonly<Record<string, unknown>>, feature: PlanFeature): boolean {
  return features[feature] === true;
}

/** The counted limits of a plan the portal enforces when something is added. */
export type PlanLimit = "users" | "reports" | "alerts";

/** A limit's number, or null when the plan sets none (missing, not a number, or negative). */
export function planLimit(limits: Readonly<Record<string, unknown>>, kind: PlanLimit): number | null {
  const raw = limits[kind];
  const value = typeof raw === "number" || typeof raw === "string" ? Number(raw) : Number.NaN;
  return raw !== "" && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Why an addition past a limit is refused, with the number the plan includes. */
export function planLimitMessage(kind: PlanLimit, limit: number): string {
  if (kind === "alerts")
    return `Your subscription plan includes ${limit} alert rule${limit === 1 ? "" : "s"}; delete one to make another.`;
  return kind === "reports"
    ? `Your subscription plan includes ${limit} report${limit === 1 ? "" : "s"}; delete one to make another.`
    : `Your subscription plan includes ${limit} user${limit === 1 ? "" : "s"}, and every place is taken (an invitation holds one until it is used or expires).`;
}

const UNIT_SECONDS: Record<string, number> = {
  DAY: 86_400,
  WEEK: 7 * 86_400,
  MONTH: 30 * 86_400,
  YEAR: 365 * 86_400,
};

/**
 * How far back the plan keeps data, in seconds (dataAgeLimitUnit DAY, WEEK, MONTH of 30 days or
 * YEAR of 365 days, times dataAgeLimitValue); null when the plan sets no limit. The audit
 * trail's retention counts with it; reads of readings use oldestAllowed's calendar instead.
 */
export function dataAgeLimitSeconds(limits: Readonly<Record<string, unknown>>): number | null {
  const unit = String(limits["dataAgeLimitUnit"] ?? "").toUpperCase();
  const value = Number(limits["dataAgeLimitValue"]);
  const seconds = UNIT_SECONDS[unit.replace(/S$/, "")];
  return seconds && Number.isFinite(value) && value > 0 ? seconds * value : null;
}

/**
 * The oldest time the plan serves data from (calendar months and years in UTC,
 * src/domain/retention.ts), or null without a limit.
 */
export function oldestAllowed(
  limits: Readonly<Record<string, unknown>>,
  now: EpochSeconds,
): EpochSeconds | null {
  return oldestVisible(limits, now) as EpochSeconds | null;
}

/** The plan's data age in words: "2 years", "1 month", "30 days"; "No limit" without one. */
export function dataAgeText(limits: Readonly<Record<string, unknown>>): string {
  if (dataAgeLimitSeconds(limits) === null) return "No limit";
  const value = Number(limits["dataAgeLimitValue"]);
  const unit = String(limits["dataAgeLimitUnit"] ?? "")
    .toLowerCase()
    .replace(/s$/, "");
  return `${value} ${unit}${value === 1 ? "" : "s"}`;
}

export const RANGE_ORDER = "The start time must be before the end time.";
/** The range a download or chart covers when the request names none: the last 24 hours. */
export const DEFAULT_RANGE_SECONDS = 86_400;

export type RangeCheck =
  { ok: true; start: EpochSeconds; end: EpochSeconds } | { ok: false; status: 400; message: string };

/**
 * The time range to serve: the last 24 hours by default, the end held to now, the start held
 * to the plan's data-age limit (a range wholly older is the empty range at the limit: asking
 * for older data is not an error, it just finds nothing); a start not before the end is a 400.
 */
export function dataRange(
  limits: Readonly<Record<string, unknown>>,
  requested: { start: number | null; end: number | null },
  now: EpochSeconds,
): RangeCheck {
  const end = Math.min(requested.end ?? now, now) as EpochSeconds;
  const start = (requested.start ?? end - DEFAULT_RANGE_SECONDS) as EpochSeconds;
  if (start >= end) return { ok: false, status: 400, message: RANGE_ORDER };
  const held = clampWindow({ start, end }, oldestAllowed(limits, now));
  return { ok: true, start: held.start as EpochSeconds, end: held.end as EpochSeconds };
}
