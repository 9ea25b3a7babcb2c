import { describe, expect, it } from "vitest";
import {
  clampWindow,
  firstKeptMonth,
  monthsBefore,
  monthStartOf,
  oldestVisible,
  retentionCutoff,
} from "../../src/domain/retention.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());
const plan = (unit: unknown, value: unknown) => ({ dataAgeLimitUnit: unit, dataAgeLimitValue: value });
const NOW = at("2026-11-29T05:30:00Z");
const WEEK = 7 * 86_400;

describe("the oldest instant a plan lets anyone see", () => {
  it.each([
    ["1 day", plan("DAY", 1), "2026-11-28T05:30:00.000Z"],
    ["30 days", plan("days", 30), "2026-10-30T05:30:00.000Z"],
    ["2 weeks", plan("WEEKS", 2), "2026-11-15T05:30:00.000Z"],
    ["1 calendar month", plan("MONTH", 1), "2026-10-29T05:30:00.000Z"],
    ["3 calendar months", plan("months", 3), "2026-08-29T05:30:00.000Z"],
    ["1 calendar year", plan("YEAR", 1), "2025-11-29T05:30:00.000Z"],
    ["2 calendar years", plan("Years", 2), "2024-11-29T05:30:00.000Z"],
    ["a value written as text", plan("YEAR", "2"), "2024-11-29T05:30:00.000Z"],
    ["half a year as 6 months", plan("YEAR", 0.5), "2026-05-29T05:30:00.000Z"],
    ["a fractional month as 30-day months", plan("MONTH", 1.5), "2026-10-15T05:30:00.000Z"],
    ["no unit", plan(undefined, 2), null],
    ["no value", plan("YEAR", undefined), null],
    ["a zero value", plan("YEAR", 0), null],
    ["a negative value", plan("MONTH", -1), null],
    ["an unknown unit", plan("EON", 1), null],
    ["a value that is not a number", plan("DAY", "many"), null],
  ])("is %s back", (_, limits, expected) => {
    expect(iso(oldestVisible(limits, NOW))).toBe(expected);
  });

  it("is none without any limit set", () => {
    expect(oldestVisible({}, NOW)).toBeNull();
  });

  it.each([
    [
      "the 31st a month back to the last of a shorter month",
      "2027-03-31T12:00:00Z",
      1,
      "2027-02-28T12:00:00.000Z",
    ],
    ["the 31st a month back in a leap year", "2028-03-31T00:00:00Z", 1, "2028-02-29T00:00:00.000Z"],
    ["29 February a year back to 28 February", "2028-02-29T23:59:59Z", 12, "2027-02-28T23:59:59.000Z"],
    ["across the year's turn", "2027-01-15T08:00:00Z", 2, "2026-11-15T08:00:00.000Z"],
    ["in UTC, whatever the local zone", "2026-04-01T00:30:00Z", 1, "2026-03-01T00:30:00.000Z"],
  ])("moves %s", (_, from, months, expected) => {
    expect(iso(monthsBefore(at(from), months))).toBe(expected);
  });
});

describe("the window a read is held to", () => {
  const oldest = 1_000;
  it.each([
    [
      "a window inside the plan, unchanged",
      { start: 1_500, end: 2_000 },
      oldest,
      { start: 1_500, end: 2_000 },
    ],
    [
      "a window starting at the plan's edge, unchanged",
      { start: 1_000, end: 2_000 },
      oldest,
      { start: 1_000, end: 2_000 },
    ],
    [
      "a window reaching older, from the edge",
      { start: 200, end: 2_000 },
      oldest,
      { start: 1_000, end: 2_000 },
    ],
    [
      "a window wholly older, empty at the edge",
      { start: 200, end: 900 },
      oldest,
      { start: 1_000, end: 1_000 },
    ],
    [
      "a window ending at the edge, empty at the edge",
      { start: 200, end: 1_000 },
      oldest,
      { start: 1_000, end: 1_000 },
    ],
    ["any window without a limit, unchanged", { start: 0, end: 10 }, null, { start: 0, end: 10 }],
  ])("is %s", (_, window, limit, expected) => {
    expect(clampWindow(window, limit)).toEqual(expected);
  });
});

describe("what no plan may see any more", () => {
  it.each([
    [
      "the oldest of every plan's edge",
      [plan("YEAR", 1), plan("YEAR", 2), plan("MONTH", 3)],
      "2024-11-29T05:30:00.000Z",
    ],
    ["one plan's edge", [plan("DAY", 30)], "2026-10-30T05:30:00.000Z"],
    ["nothing when one plan has no limit", [plan("YEAR", 1), {}], null],
    ["nothing without any plan", [], null],
  ])("is %s", (_, plans, expected) => {
    expect(iso(retentionCutoff(plans, NOW))).toBe(expected);
  });

  it.each([
    ["the month of the cutoff", at("2024-11-29T05:30:00Z"), NOW, "2024-11-01T00:00:00.000Z"],
    [
      "a cutoff on a month's first instant keeps that month",
      at("2024-11-01T00:00:00Z"),
      NOW,
      "2024-11-01T00:00:00.000Z",
    ],
    [
      "the month a push may still write to, for a short plan",
      at("2026-11-28T05:30:00Z"),
      at("2026-11-03T00:00:00Z"),
      "2026-10-01T00:00:00.000Z",
    ],
    [
      "never later than the current month, for a cutoff ahead of now",
      NOW + 86_400,
      NOW,
      "2026-11-01T00:00:00.000Z",
    ],
    ["none without a cutoff", null, NOW, null],
  ])("keeps from %s", (_, cutoff, now, expected) => {
    expect(iso(firstKeptMonth(cutoff, now, WEEK))).toBe(expected);
  });

  it("starts months on their first instant in UTC", () => {
    expect(iso(monthStartOf(at("2026-12-31T23:59:59Z")))).toBe("2026-12-01T00:00:00.000Z");
    expect(iso(monthStartOf(at("2027-01-01T00:00:00Z")))).toBe("2027-01-01T00:00:00.000Z");
  });
});
