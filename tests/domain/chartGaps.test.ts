import { describe, expect, it } from "vitest";
import {
  chartGaps,
  expectedSpacing,
  findGaps,
  gapLabel,
  gapText,
  gapThreshold,
  MAX_GAP_MARKS,
  withBreaks,
  type Gap,
} from "../../src/domain/chartGaps.ts";

const MIN = 60;
const HOUR = 3600;
const DAY = { from: 0, to: 24 * HOUR };
/** Readings every `step` seconds from `from` up to and including `to`. */
const every = (step: number, from: number, to: number): [number, number | null][] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => [from + i * step, 20]);

describe("the gap rule", () => {
  it.each([
    ["the median spacing of readings", [0, 60, 120, 180, 1000], 0, 60],
    ["the middle two's mean for an even count", [0, 60, 180, 360, 1000], 0, 150],
    ["the bucket width when the chart grouped its readings", [0, 10, 3000], 1800, 1800],
    ["nothing with a single reading", [50], 0, 0],
  ])("expects %s", (_, times, bucket, expected) => {
    expect(expectedSpacing(times, bucket)).toBe(expected);
  });

  it.each([
    [60, 15 * MIN],
    [5 * MIN, 15 * MIN],
    [10 * MIN, 30 * MIN],
    [HOUR, 3 * HOUR],
  ])("allows readings %i s apart to be %i s apart before a gap", (expected, threshold) => {
    expect(gapThreshold(expected)).toBe(threshold);
  });

  it.each<[string, [number, number | null][], number, Gap[]]>([
    ["finds none in a steady day of minute readings", every(MIN, 0, 24 * HOUR), 0, []],
    [
      "finds a device's two silent hours between its readings",
      [...every(MIN, 0, 10 * HOUR), ...every(MIN, 12 * HOUR, 24 * HOUR)],
      0,
      [{ from: 10 * HOUR, to: 12 * HOUR }],
    ],
    [
      "skips the null the server put in a gap",
      [...every(MIN, 0, 10 * HOUR), [11 * HOUR, null], ...every(MIN, 12 * HOUR, 24 * HOUR)],
      0,
      [{ from: 10 * HOUR, to: 12 * HOUR }],
    ],
    [
      "leaves a silence shorter than 15 minutes unmarked",
      [...every(MIN, 0, 10 * HOUR), ...every(MIN, 10 * HOUR + 14 * MIN, 24 * HOUR)],
      0,
      [],
    ],
    [
      "marks 16 silent minutes of a minute pusher",
      [...every(MIN, 0, 10 * HOUR), ...every(MIN, 10 * HOUR + 16 * MIN, 24 * HOUR)],
      0,
      [{ from: 10 * HOUR, to: 10 * HOUR + 16 * MIN }],
    ],
    [
      "leaves two missed pushes of an hourly device unmarked",
      [...every(HOUR, 0, 10 * HOUR), ...every(HOUR, 13 * HOUR, 24 * HOUR)],
      0,
      [],
    ],
    [
      "marks the window's start before the first reading and its end after the last",
      every(MIN, 2 * HOUR, 20 * HOUR),
      0,
      [
        { from: 0, to: 2 * HOUR },
        { from: 20 * HOUR, to: 24 * HOUR },
      ],
    ],
    [
      "keeps a grouped chart's minima and maxima up to two widths apart unmarked",
      [
        [0, 1],
        [3500, 2],
        [3700, 1],
        [7100, 2],
        [7300, 1],
        [24 * HOUR - 100, 1],
      ],
      1800,
      [{ from: 7300, to: 24 * HOUR - 100 }],
    ],
    ["marks the whole window of a series without readings", [], 0, [DAY]],
  ])("%s", (_, points, bucket, gaps) => {
    expect(findGaps(points, DAY, bucket)).toEqual(gaps);
  });
});

describe("a chart's gap marks", () => {
  it("merges the overlapping gaps of a device's channels into one mark naming both", () => {
    const marks = chartGaps([
      { name: "Temperature", gaps: [{ from: 100, to: 2000 }] },
      { name: "Humidity", gaps: [{ from: 130, to: 1990 }] },
      { name: "Door", gaps: [] },
    ]);
    expect(marks).toEqual([{ from: 100, to: 2000, names: ["Temperature", "Humidity"] }]);
    expect(gapLabel(marks[0]!, 3)).toBe("No data: Temperature, Humidity");
    expect(gapLabel(marks[0]!, 2)).toBe("No data");
  });

  it("keeps the longest gaps, in time order, when there are too many to draw", () => {
    const gaps = Array.from({ length: MAX_GAP_MARKS + 3 }, (_, i) => ({ from: i * 1000, to: i * 1000 + i }));
    const marks = chartGaps([{ name: "A", gaps }]);
    expect(marks).toHaveLength(MAX_GAP_MARKS);
    expect(marks[0]!.from).toBe(3000);
    const starts = marks.map((m) => m.from);
    expect(starts).toEqual(marks.map((m) => m.from).sort((a, b) => a - b));
  });

  it("says when the data stops and starts again in the zone", () => {
    const gap = { from: Date.UTC(2026, 10, 22, 18) / 1000, to: Date.UTC(2026, 10, 22, 20) / 1000 };
    expect(gapText(gap, "America/New_York")).toBe(
      "No data from Nov 22, 2026, 1:00 PM to Nov 22, 2026, 3:00 PM",
    );
  });

  it("breaks a line inside a gap that has no null, once", () => {
    const points: [number, number | null][] = [
      [0, 1],
      [60, 2],
      [5000, 3],
      [5060, null],
      [9000, 4],
    ];
    const gaps = [
      { from: 60, to: 5000 },
      { from: 5000, to: 9000 },
    ];
    expect(withBreaks(points, gaps)).toEqual([
      [0, 1],
      [60, 2],
      [2530, null],
      [5000, 3],
      [5060, null],
      [9000, 4],
    ]);
  });
});
