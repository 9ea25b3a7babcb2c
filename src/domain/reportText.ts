import type { EpochSeconds } from "./brand.ts";
import { formatDate } from "./dayText.ts";
import { isKnownTimezone } from "./timezones.ts";
/* The public report's texts: its zone list, times with their zone, durations and ages (Intl only). */

/** The time zones of the dropdown: UTC, then about 80 of the world's common zones. */
export const ZONES: readonly string[] = [
  "UTC",
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Vancouver",
  "America/Tijuana",
  "America/Phoenix",
  "America/Denver",
  "America/Edmonton",
  "America/Chicago",
  "America/Mexico_City",
  "America/Winnipeg",
  "America/Regina",
  "America/Guatemala",
  "America/New_York",
  "America/Toronto",
  "America/Detroit",
  "America/Bogota",
  "America/Lima",
  "America/Panama",
  "America/Halifax",
  "America/Caracas",
  "America/La_Paz",
  "America/Santiago",
  "America/Puerto_Rico",
  "America/St_Johns",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "America/Montevideo",
  "Atlantic/Azores",
  "Atlantic/Reykjavik",
  "Europe/London",
  "Europe/Dublin",
  "Europe/Lisbon",
  "Africa/Casablanca",
  "Africa/Lagos",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Rome",
  "Europe/Amsterdam",
  "Europe/Brussels",
  "Europe/Zurich",
  "Europe/Vienna",
  "Europe/Stockholm",
  "Europe/Oslo",
  "Europe/Copenhagen",
  "Europe/Warsaw",
  "Europe/Prague",
  "Europe/Budapest",
  "Europe/Athens",
  "Europe/Bucharest",
  "Europe/Helsinki",
  "Europe/Kyiv",
  "Europe/Istanbul",
  "Africa/Cairo",
  "Africa/Johannesburg",
  "Africa/Nairobi",
  "Asia/Jerusalem",
  "Europe/Moscow",
  "Asia/Riyadh",
  "Asia/Tehran",
  "Asia/Dubai",
  "Asia/Baku",
  "Asia/Kabul",
  "Asia/Karachi",
  "Asia/Tashkent",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Yangon",
  "Asia/Bangkok",
  "Asia/Jakarta",
  "Asia/Ho_Chi_Minh",
  "Asia/Shanghai",
  "Asia/Hong_Kong",
  "Asia/Singapore",
  "Asia/Taipei",
  "Asia/Manila",
  "Australia/Perth",
  "Asia/Seoul",
  "Asia/Tokyo",
  "Australia/Darwin",
  "Australia/Adelaide",
  "Australia/Brisbane",
  "Australia/Sydney",
  "Australia/Melbourne",
  "Pacific/Guam",
  "Pacific/Noumea",
  "Pacific/Auckland",
  "Pacific/Fiji",
];

const stampFormats = new Map<string, Intl.DateTimeFormat>();
/** 'Nov 22, 2026, 3:07 PM' in the zone: excursion times, tooltips, 'stale since'. */
export function formatStamp(at: number, zone: string): string {
  let f = stampFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: isKnownTimezone(zone) ? zone : "UTC",
      month: "short",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
    });
    stampFormats.set(zone, f);
  }
  return f.format(new Date(at * 1000));
}

/** A duration in seconds as '2 d 3 h', '1 h 20 min', '45 min' or '30 s'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return `${m} min`;
  return `${s} s`;
}

/** How old a reading is: 'just now', '5 min ago', '2 h ago', '3 d ago'. */
export function formatAge(seconds: number): string {
  if (seconds < 60) return "just now";
  return `${formatDuration(seconds >= 3600 ? Math.floor(seconds / 3600) * 3600 : seconds).replace(/ \d+ (min|h)$/, "")} ago`;
}

/** A rolling window's length in words: '24 hours', '7 days', '90 minutes', 'hour'. */
function spelled(seconds: number): string {
  const unit = (n: number, word: string) => (n === 1 ? word : `${n} ${word}s`);
  if (seconds % 86_400 === 0 && seconds >= 2 * 86_400) return unit(seconds / 86_400, "day");
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  return unit(Math.round(seconds / 60), "minute");
}

/**
 * What a report covers, under its name: 'The last 24 hours' for a rolling window, the start
 * and end days in the zone for a fixed one (the axis alone never said which days an audit spans).
 */
export function windowText(
  details: { timeInterval: number },
  window: { start: number; end: number },
  zone: string,
): string {
  if (details.timeInterval > 0) return `The last ${spelled(details.timeInterval)}`;
  // Days in the spec's date format, short enough for one line on a phone (the axis has the hours).
  return `${formatDate(window.start as EpochSeconds, zone)} – ${formatDate(window.end as EpochSeconds, zone)}`;
}
