import { describe, expect, it } from "vitest";
import { zoneOffsets } from "../../src/domain/zoneOffsets.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";

const QUARTER_HOUR = 900;
const at = (iso: string) => Date.parse(iso) / 1000;

describe("zone offsets for times read in order", () => {
  it.each([
    ["America/New_York", "2026-01-01T00:00:00Z"],
    ["Australia/Lord_Howe", "2026-01-01T00:00:00Z"],
    ["Pacific/Chatham", "2026-01-01T00:00:00Z"],
    ["Asia/Kolkata", "2026-01-01T00:00:00Z"],
    ["Europe/Moscow", "2011-01-01T00:00:00Z"],
  ])("agrees with the zone clock at every quarter hour of a year in %s from %s", (zone, from) => {
    const clock = zoneClock(zone);
    const offset = zoneOffsets(zone);
    const start = at(from);
    const differ: number[] = [];
    for (let t = start; t < start + 365 * 86_400; t += QUARTER_HOUR) {
      // A time inside the quarter hour too: the offset is the quarter hour's.
      if (offset(t + 61) !== clock.offset(t + 61)) differ.push(t);
    }
    expect(differ).toEqual([]);
  });

  it("agrees with the zone clock when times jump back and forth across a change", () => {
    const zone = "Europe/London";
    const clock = zoneClock(zone);
    const offset = zoneOffsets(zone);
    const change = at("2026-03-29T01:00:00Z");
    const times = [change + 59, change - 1, change - 3600, change + 900, change - 901, change + 3599, change];
    expect(times.map(offset)).toEqual(times.map((t) => clock.offset(t)));
    expect(offset(change - 1)).toBe(0);
    expect(offset(change)).toBe(3600);
  });

  it("is UTC for an unknown zone", () => {
    expect(zoneOffsets("Not/AZone")(at("2026-07-01T00:00:00Z"))).toBe(0);
  });
});
