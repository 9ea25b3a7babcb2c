// Moments inside an audit row's recorded values (a link's expiry, a report's start): the row
// keeps them in UTC; the viewer reads them in the zone the page writes the row's own time in.
import { epochSeconds, type EpochSeconds } from "./brand.ts";
import { formatDateTime } from "./dates.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z$/;
const EPOCH = /^\d{9,11}$/;
/** Fields whose bare number of seconds is a moment (elsewhere it may be a count). */
const TIME_FIELDS = new Set(["from", "to", "at", "startDate", "endDate", "expiresAt", "mutedUntil"]);

/** The moment a recorded text holds: an ISO time in UTC anywhere, epoch seconds in a time field. */
export function recordedMoment(text: string, field: string): EpochSeconds | null {
  if (ISO.test(text)) return epochSeconds(Date.parse(text) / 1000);
  if (TIME_FIELDS.has(field) && EPOCH.test(text)) return epochSeconds(Number(text));
  return null;
}

/**
 * A recorded moment in words: with the viewer's zone as the page writes a row's time
 * ("November 29, 2026, 7:57 AM"); without one "2026-11-29 06:57 UTC" (the row as kept).
 */
export function momentText(at: EpochSeconds, zone?: string): string {
  if (zone !== undefined) return formatDateTime(at, zone);
  const iso = new Date(at * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const ISO_ANYWHERE = /\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g;

/** A sentence with its UTC times (an integrity fault's "sealed by ...") in the viewer's zone. */
export function withMomentsIn(text: string, zone: string): string {
  return text.replace(ISO_ANYWHERE, (iso) => momentText(epochSeconds(Date.parse(iso) / 1000), zone));
}
