// The spec's date format with the runtime's Intl only, kept apart from dates.ts so that the
// small scripts of the public pages can format a date without the Temporal polyfill.
import type { EpochSeconds } from "./brand.ts";
import { isKnownTimezone } from "./timezones.ts";

/** 'MMM DD, YYYY', e.g. "Nov 05, 2026", in the zone (UTC when the zone is unknown). */
export function formatDate(at: EpochSeconds, zone = "UTC"): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: isKnownTimezone(zone) ? zone : "UTC",
    month: "short",
    day: "2-digit",
    year: "numeric",
  }).formatToParts(new Date(at * 1000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${part("day")}, ${part("year")}`;
}

/** 'h:mm A', e.g. "3:07 PM", in the zone. */
export function formatTime(at: EpochSeconds, zone = "UTC"): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: isKnownTimezone(zone) ? zone : "UTC",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(at * 1000));
}

/** The visitor's own time zone, as the browser reports it. */
export function visitorZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
