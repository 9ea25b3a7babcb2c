import { describe, expect, it } from "vitest";
import {
  chartPoints,
  gapSecondsFor,
  groupBuckets,
  groupWidth,
  MAX_POINTS,
  mergeTwo,
  pickLevel,
  sampleBucket,
  summarize,
} from "../../src/domain/downsample.ts";

const DAY = 86_400;
const minutes = (n: number, from = 0, value = (i: number) => 20 + Math.sin(i / 60)) =>
  Array.from({ length: n }, (_, i) => sampleBucket(from + i * 60, value(i)));

describe("downsampling a chart", () => {
  it.each([
    [DAY, 0],
    [5 * DAY, 0],
    [6 * DAY, 300],
    [7 * DAY, 300],
    [16 * DAY, 900],
    [30 * DAY, 900],
    [63 * DAY, 3600],
    [188 * DAY, 10_800],
    [365 * DAY, 10_800],
  ])("reads a window of %i seconds at level %i (the coarsest with 1500 buckets)", (range, level) => {
    expect(pickLevel(range)).toBe(level);
  });

  it.each([
    [DAY, 0, 58],
    [365 * DAY, 10_800, 21_600],
    [30 * DAY, 900, 1800],
    [7 * DAY, 300, 600],
  ])("groups a window of %i seconds at level %i into buckets %i seconds wide", (range, level, width) => {
    expect(groupWidth(range, level as 0 | 300)).toBe(width);
    expect(range / width).toBeLessThanOrEqual(MAX_POINTS / 2);
  });

  // Ninety days, not a year: the same grouping (buckets of many minutes each), without half a
  // million samples that timed out on a loaded machine. npm run bench times a year.
  it("keeps a one-minute spike in ninety days of minute samples", () => {
    const span = 90 * 1440;
    const spikeAt = 100_000;
    const samples = minutes(span, 0, (i) => (i === spikeAt ? 95 : 20 + (i % 7) / 10));
    const width = groupWidth(span * 60, 0);
    expect(width).toBeGreaterThan(60);
    const points = chartPoints(groupBuckets(samples, width), 120);
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(points).toContainEqual([spikeAt * 60, 95]);
    expect(Math.max(...points.map((p) => p[1] ?? 0))).toBe(95);
  });

  it("puts each bucket's minimum and maximum at the times they were read, in time order", () => {
    const samples = [sampleBucket(0, 5), sampleBucket(60, 9), sampleBucket(120, 1), sampleBucket(180, 4)];
    expect(chartPoints(groupBuckets(samples, 600), 1200)).toEqual([
      [60, 9],
      [120, 1],
    ]);
    expect(chartPoints(groupBuckets([sampleBucket(30, 7)], 600), 1200)).toEqual([[30, 7]]);
  });

  it("breaks the line with a null point where the device was silent for longer than the gap", () => {
    const before = minutes(60, 0, () => 20);
    const after = minutes(60, 60 * 60 + 3 * 3600, () => 21);
    const points = chartPoints([...before, ...after], gapSecondsFor(600));
    const gap = points.findIndex((p) => p[1] === null);
    expect(gap).toBe(60);
    expect(points[gap]![0]).toBeGreaterThan(59 * 60);
    expect(points[gap]![0]).toBeLessThan(60 * 60 + 3 * 3600);
    expect(points.filter((p) => p[1] === null)).toHaveLength(1);
  });

  it("draws no gap for silences up to two push intervals", () => {
    const spaced = [sampleBucket(0, 1), sampleBucket(1200, 2), sampleBucket(2400, 3)];
    expect(chartPoints(spaced, gapSecondsFor(600)).every((p) => p[1] !== null)).toBe(true);
    expect(gapSecondsFor(600)).toBe(1200);
    expect(gapSecondsFor(10)).toBe(120);
  });

  it("aligns groups to multiples of their width, so a moving window keeps the same groups", () => {
    const samples = minutes(100, 1000);
    const groups = groupBuckets(samples, 600);
    expect(groups[0]!.start).toBe(600);
    expect(groups.every((g) => g.start % 600 === 0 && g.end - g.start === 600)).toBe(true);
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(100);
  });

  it("merges statistics exactly and keeps the earlier time of equal extremes", () => {
    const m = mergeTwo(sampleBucket(0, 3), sampleBucket(60, 3));
    expect(m).toMatchObject({ min: 3, minAt: 0, max: 3, maxAt: 0, firstAt: 0, lastAt: 60, count: 2, sum: 6 });
    expect(summarize([sampleBucket(0, 1), sampleBucket(60, 2), sampleBucket(120, 6)])).toEqual({
      min: 1,
      max: 6,
      avg: 3,
      count: 3,
    });
    expect(summarize([])).toBeNull();
  });
});
