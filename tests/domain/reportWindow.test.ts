import { describe, expect, it } from "vitest";
import {
  DEFAULT_WINDOW_SECONDS,
  MAX_WINDOW_SECONDS,
  OUTSIDE_WINDOW,
  reportWindow,
  requestedWindow,
  START_BEFORE_END,
} from "../../src/domain/reportWindow.ts";

const NOW = 1_800_000_000;

describe("report window", () => {
  it.each([
    [
      "the last timeInterval seconds when it is above 0",
      { timeInterval: 3600, startDate: 1, endDate: 2 },
      { start: NOW - 3600, end: NOW },
    ],
    [
      "startDate to endDate otherwise",
      { timeInterval: 0, startDate: NOW - 500, endDate: NOW - 100 },
      { start: NOW - 500, end: NOW - 100 },
    ],
    [
      "startDate to endDate for a negative interval",
      { timeInterval: -5, startDate: 10, endDate: 20 },
      { start: 10, end: 20 },
    ],
    [
      "the last day without dates",
      { timeInterval: 0, startDate: null, endDate: null },
      { start: NOW - DEFAULT_WINDOW_SECONDS, end: NOW },
    ],
    [
      "the last day when the dates are reversed",
      { timeInterval: 0, startDate: 20, endDate: 10 },
      { start: NOW - DEFAULT_WINDOW_SECONDS, end: NOW },
    ],
    [
      "the newest five years of a longer window",
      { timeInterval: 20 * 365 * 86_400, startDate: null, endDate: null },
      { start: NOW - MAX_WINDOW_SECONDS, end: NOW },
    ],
  ])("is %s", (_, timing, expected) => {
    expect(reportWindow(timing, NOW)).toEqual(expected);
  });

  it("starts no earlier than the plan keeps data, and is the empty window at the plan's edge when wholly older", () => {
    const week = { timeInterval: 7 * 86_400, startDate: null, endDate: null };
    expect(reportWindow(week, NOW, NOW - 86_400)).toEqual({ start: NOW - 86_400, end: NOW });
    expect(reportWindow(week, NOW, NOW - 30 * 86_400)).toEqual({ start: NOW - 7 * 86_400, end: NOW });
    expect(reportWindow({ timeInterval: 0, startDate: 100, endDate: 200 }, NOW, 500)).toEqual({
      start: 500,
      end: 500,
    });
  });

  it.each([
    ["the whole window when nothing is asked", {}, { start: 100, end: 200 }],
    ["a zoom inside the window", { start: 120, end: 150 }, { start: 120, end: 150 }],
    ["one end asked, the other the window's", { start: 150 }, { start: 150, end: 200 }],
    ["a range reaching past the window, clipped to it", { start: 50, end: 500 }, { start: 100, end: 200 }],
    ["start after end refused", { start: 180, end: 120 }, { error: START_BEFORE_END }],
    ["start equal to end refused", { start: 150, end: 150 }, { error: START_BEFORE_END }],
    [
      "a range wholly before the window as the empty window at its start",
      { start: 10, end: 90 },
      { start: 100, end: 100 },
    ],
    ["a range wholly after the window refused", { start: 300, end: 400 }, { error: OUTSIDE_WINDOW }],
  ])("serves %s", (_, asked, expected) => {
    expect(requestedWindow({ start: 100, end: 200 }, asked)).toEqual(expected);
  });

  it.each([
    ["nothing", {}],
    ["a zoom", { start: 120, end: 150 }],
    ["an older range", { start: 10, end: 90 }],
    ["a newer range", { start: 600, end: 700 }],
  ])("answers %s asked of a window the plan aged out with that empty window", (_, asked) => {
    expect(requestedWindow({ start: 500, end: 500 }, asked)).toEqual({ start: 500, end: 500 });
  });
});
