// Times in a named zone with their UTC offset ("2026-03-08T01:59:00-05:00"), so an hour that
// daylight saving repeats is never ambiguous in an export. Intl only (no Temporal), and the
// offset is asked once per quarter hour: every zone changes its offset on a quarter hour, and
// an export walks time in order, so one cached block serves thousands of rows.
import { isKnownTimezone } from "./timezones.ts";

const QUARTER_HOUR = 900;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC at `at` (epoch seconds), in seconds east of Greenwich. */
export function zoneOffsetSeconds(at: number, zone: string): number {
  const whole = Math.floor(at);
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(new Date(whole * 1000)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  const wall = Date.UTC(
    parts["year"]!,
    parts["month"]! - 1,
    parts["day"],
    parts["hour"],
    parts["minute"],
    parts["second"],
  );
  return wall / 1000 - whole;
}

/** "+05:30", "-05:00", "+00:00". */
export function offsetText(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const minutes = Math.round(Math.abs(seconds) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * A clock for one zone (UTC when the name is unknown): `offset(at)` in seconds and `iso(at)`,
 * the wall time with its offset to the second. Keeps the last quarter hour's offset.
 */
export function zoneClock(zone: string) {
  const name = isKnownTimezone(zone) ? zone : "UTC";
  let block = Number.NaN;
  let cached = 0;
  const offset = (at: number) => {
    const b = Math.floor(at / QUARTER_HOUR);
    if (b !== block) {
      block = b;
      cached = name === "UTC" ? 0 : zoneOffsetSeconds(b * QUARTER_HOUR, name);
    }
    return cached;
  };
  const iso = (at: number) => {
    const shift = offset(at);
    return new Date((Math.floor(at) + shift) * 1000).toISOString().slice(0, 19) + offsetText(shift);
  };
  return { zone: name, offset, iso };
}
