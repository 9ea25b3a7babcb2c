import { Temporal } from "temporal-polyfill";
import type { EpochSeconds } from "./brand.ts";
import { isKnownTimezone } from "./timezones.ts";

export { isKnownTimezone };
export { formatDate } from "./dayText.ts";

export const DEFAULT_TIMEZONE = "UTC";
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** Unknown time zones fall back to UTC (spec section 5). */
export function resolveTimezone(zone: string | null | undefined): string {
  return zone && isKnownTimezone(zone) ? zone : DEFAULT_TIMEZONE;
}

function zoned(at: EpochSeconds, zone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(at * 1000).toZonedDateTimeISO(resolveTimezone(zone));
}

/** 'MMMM D, YYYY, h:mm A', e.g. "November 5, 2026, 3:07 PM": device push times. */
export function formatDateTime(at: EpochSeconds, zone: string = DEFAULT_TIMEZONE): string {
  const d = zoned(at, zone);
  const hour12 = d.hour % 12 === 0 ? 12 : d.hour % 12;
  const ampm = d.hour < 12 ? "AM" : "PM";
  const minute = String(d.minute).padStart(2, "0");
  return `${MONTHS[d.month - 1]} ${d.day}, ${d.year}, ${hour12}:${minute} ${ampm}`;
}
