import { describe, expect, it } from "vitest";
import { offsetText, zoneClock, zoneOffsetSeconds } from "../../src/domain/zoneTime.ts";

const at = (iso: string) => Date.parse(iso) / 1000;

describe("zone times", () => {
  it.each([
    ["America/New_York", "2026-03-08T06:59:00Z", "2026-03-08T01:59:00-05:00"],
    ["America/New_York", "2026-03-08T07:00:00Z", "2026-03-08T03:00:00-04:00"],
    ["America/New_York", "2026-11-01T05:59:59Z", "2026-11-01T01:59:59-04:00"],
    ["America/New_York", "2026-11-01T06:00:00Z", "2026-11-01T01:00:00-05:00"],
    ["Asia/Kolkata", "2026-01-01T00:00:00Z", "2026-01-01T05:30:00+05:30"],
    ["Asia/Kathmandu", "2026-01-01T00:00:00Z", "2026-01-01T05:45:00+05:45"],
    ["America/St_Johns", "2026-07-01T12:00:00Z", "2026-07-01T09:30:00-02:30"],
    ["UTC", "2026-07-01T12:00:00Z", "2026-07-01T12:00:00+00:00"],
    ["Not/AZone", "2026-07-01T12:00:00Z", "2026-07-01T12:00:00+00:00"],
  ])("writes %s at %s as %s", (zone, utc, expected) => {
    expect(zoneClock(zone).iso(at(utc))).toBe(expected);
  });

  it("keeps both 01:30 of the repeated autumn hour apart by their offsets", () => {
    const clock = zoneClock("America/New_York");
    const first = clock.iso(at("2026-11-01T05:30:00Z"));
    const second = clock.iso(at("2026-11-01T06:30:00Z"));
    expect([first, second]).toEqual(["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"]);
  });

  it("reads offsets east positive and writes them as ±HH:MM", () => {
    expect(zoneOffsetSeconds(at("2026-01-01T00:00:00Z"), "Asia/Tokyo")).toBe(9 * 3600);
    expect(zoneOffsetSeconds(at("2026-01-01T00:00:00Z"), "America/Los_Angeles")).toBe(-8 * 3600);
    expect([offsetText(0), offsetText(19_800), offsetText(-9000)]).toEqual(["+00:00", "+05:30", "-02:30"]);
  });

  it("names the zone it used, UTC for an unknown one", () => {
    expect(zoneClock("Europe/Paris").zone).toBe("Europe/Paris");
    expect(zoneClock("").zone).toBe("UTC");
  });
});
