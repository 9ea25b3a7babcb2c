// The spec's date format with the runtime's Intl only, kept apart from dates.ts so that the
// small scripts of the public pages can format a date without the Temporal polyfill.
import type { EpochSeconds } from "./brand.ts";
import { isKnownTimezone } from "./timezones.ts";

/**
 * The two formatters of a zone, built once: building an Intl.DateTimeFormat costs about a
 * hundred times more than using one, and the audit PDF formats thousands of times. Only
 * known zone names are kept, so names made up in query strings never grow the map.
 */
const formatters = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
function formattersOf(zone: string) {
  const kept = formatters.get(zone);
  if (kept) return kept;
  const timeZone = isKnownTimezone(zone) ? zone : "UTC";
  const made = {
    date: new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "2-digit", year: "numeric" }),
    time: new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" }),
  };
  if (timeZone === zone) formatters.set(zone, made);
  return made;
}

/** 'MMM DD, YYYY', e.g. "Nov 05, 2026", in the zone (UTC when the zone is unknown). */
export function formatDate(at: EpochSeconds, zone = "UTC"): string {
  const parts = formattersOf(zone).date.formatToParts(new Date(at * 1000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${part("day")}, ${part("year")}`;
}

/** 'h:mm A', e.g. "3:07 PM", in the zone. */
export function formatTime(at: EpochSeconds, zone = "UTC"): string {
  return formattersOf(zone).time.format(new Date(at * 1000));
}

/** The visitor's own time zone, as the browser reports it. */
export function visitorZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
