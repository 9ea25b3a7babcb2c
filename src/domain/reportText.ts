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

const shortStamps = new Map<string, Intl.DateTimeFormat>();
/** 'Nov 22, 3:07 PM' in the zone: the ends of a window shorter than two days. */
function shortStamp(at: number, zone: string): string {
  let f = shortStamps.get(zone);
  if (!f) {
    const timeZone = isKnownTimezone(zone) ? zone : "UTC";
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
    });
    shortStamps.set(zone, f);
  }
  return f.format(new Date(at * 1000)).replace(/\s/gu, " ");
}

/**
 * What a report covers, under its name, and in which zone: the days a window of two days or
 * more spans ('Oct 26, 2026 – Nov 01, 2026 · UTC'), the times of a shorter one ('Nov 21,
 * 3:00 PM – Nov 22, 3:00 PM · UTC'). Not 'The last 24 hours': a report's name often says that
 * already, and the axis alone never said which days or zone a chart spans.
 */
export function windowText(window: { start: number; end: number }, zone: string): string {
  const days = window.end - window.start >= 2 * 86_400;
  const end = (at: number) => (days ? formatDate(at as EpochSeconds, zone) : shortStamp(at, zone));
  return `${end(window.start)} – ${end(window.end)} · ${zone.replace(/_/g, " ")}`;
}
