import { Temporal } from "temporal-polyfill";
import type { EpochSeconds } from "./brand.ts";
import { resolveTimezone } from "./dates.ts";

/*
 * When a scheduled report is sent and which period it covers, in the schedule's own time zone.
 *
 * Daylight saving, the two written rules:
 * - A local hour that does not exist (spring forward: 02:00 in Europe/Berlin on 2026-03-29)
 *   sends at the first moment after the gap (03:00 local, the same instant as 02:00 the day
 *   before plus 23 hours): the send is late by the skipped hour, never skipped.
 * - A local hour that occurs twice (autumn: 02:00 in Berlin on 2026-10-25) sends once, at its
 *   first occurrence (summer time); the next send is the next day's hour.
 * Periods are local calendar units from local midnight to local midnight, so a day of the
 * change has 23 or 25 hours and a week or month is an hour shorter or longer.
 */

import { CADENCES, PERIOD_NAMES, type Cadence } from "./cadence.ts";

export { CADENCES, PERIOD_NAMES, type Cadence };

export interface ScheduleTiming {
  cadence: Cadence;
  /** Local hour 0-23. */
  hour: number;
  /** ISO weekday 1 (Monday) to 7 (Sunday); used by weekly schedules only. */
  weekday: number;
  timeZone: string;
}

export interface Period {
  start: EpochSeconds;
  end: EpochSeconds;
}

const secondsOf = (z: Temporal.ZonedDateTime) => Math.floor(z.epochMilliseconds / 1000) as EpochSeconds;

function zonedAt(at: EpochSeconds, zone: string) {
  return Temporal.Instant.fromEpochMilliseconds(at * 1000).toZonedDateTimeISO(resolveTimezone(zone));
}

/** Whether a local date is a send day of the cadence (monthly: the 1st). */
function isSendDay(date: Temporal.PlainDate, t: ScheduleTiming): boolean {
  if (t.cadence === "weekly") return date.dayOfWeek === t.weekday;
  if (t.cadence === "monthly") return date.day === 1;
  return true;
}

/** The instant of `hour`:00 on a local date; "compatible" is the two rules above. */
function sendInstant(date: Temporal.PlainDate, t: ScheduleTiming): Temporal.ZonedDateTime {
  return date
    .toPlainDateTime({ hour: t.hour })
    .toZonedDateTime(resolveTimezone(t.timeZone), { disambiguation: "compatible" });
}

/** The first send time strictly after `now` (epoch seconds). */
export function nextSendAfter(t: ScheduleTiming, now: EpochSeconds): EpochSeconds {
  let date = zonedAt(now, t.timeZone).toPlainDate();
  // A month plus a day covers every cadence's next send day.
  for (let i = 0; i < 64; i++, date = date.add({ days: 1 })) {
    if (!isSendDay(date, t)) continue;
    const at = secondsOf(sendInstant(date, t));
    if (at > now) return at;
  }
  throw new Error("no send day within 64 days");
}

/** Local midnight starting a date, as the zone has it (a zone may skip midnight itself). */
const dayStart = (date: Temporal.PlainDate, zone: string) =>
  secondsOf(date.toZonedDateTime({ timeZone: resolveTimezone(zone) }));

/**
 * The period just ended at a send time: yesterday (daily), last Monday to Sunday (weekly) or
 * last calendar month (monthly), local midnight to local midnight in the schedule's zone.
 */
export function periodBefore(t: Pick<ScheduleTiming, "cadence" | "timeZone">, sentAt: EpochSeconds): Period {
  const today = zonedAt(sentAt, t.timeZone).toPlainDate();
  let end: Temporal.PlainDate;
  let start: Temporal.PlainDate;
  if (t.cadence === "daily") {
    end = today;
    start = today.subtract({ days: 1 });
  } else if (t.cadence === "weekly") {
    end = today.subtract({ days: today.dayOfWeek - 1 });
    start = end.subtract({ weeks: 1 });
  } else {
    end = today.with({ day: 1 });
    start = end.subtract({ months: 1 });
  }
  return { start: dayStart(start, t.timeZone), end: dayStart(end, t.timeZone) };
}

/** The local date (YYYY-MM-DD) of an instant in a zone: the period's label in file names. */
export function localDate(at: EpochSeconds, zone: string): string {
  return zonedAt(at, zone).toPlainDate().toString();
}
