import { describe, expect, it } from "vitest";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";

const at = (iso: string) => (Date.parse(iso) / 1000) as EpochSeconds;

describe("dates and times without Temporal", () => {
  it.each([
    ["2026-11-05T15:07:00Z", "UTC", "Nov 05, 2026", "3:07 PM"],
    ["2026-11-05T15:07:00Z", "America/New_York", "Nov 05, 2026", "10:07 AM"],
    ["2026-11-05T23:30:00Z", "Asia/Tokyo", "Nov 06, 2026", "8:30 AM"],
    ["2026-01-01T00:00:00Z", "Not/AZone", "Jan 01, 2026", "12:00 AM"],
  ])("shows %s in %s as %s, %s", (iso, zone, date, time) => {
    expect(formatDate(at(iso), zone)).toBe(date);
    expect(formatTime(at(iso), zone)).toBe(time);
  });
});
