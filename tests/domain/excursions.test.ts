import { describe, expect, it } from "vitest";
import { sampleBucket, type Bucket } from "../../src/domain/downsample.ts";
import {
  excursionsInRange,
  excursionsOf,
  readingSpans,
  secondsOutside,
  touches,
  worstIn,
  type ThresholdRange,
} from "../../src/domain/excursions.ts";

const TOO_WARM: ThresholdRange = { id: 1, min: 8, max: null };
const TOO_COLD: ThresholdRange = { id: 2, min: null, max: 1 };
const BAND: ThresholdRange = { id: 3, min: 10, max: 20 };
const WINDOW = { start: 0, end: 100_000 };
const OPTS = { gapSeconds: 1200, window: WINDOW };

/** A five-minute rollup bucket starting at `start` with the given extremes (times inside it). */
const bucket = (start: number, min: number, max: number): Bucket => ({
  start,
  end: start + 300,
  min,
  max,
  minAt: start + 60,
  maxAt: start + 120,
  firstAt: start,
  lastAt: start + 240,
  sum: (min + max) * 2.5,
  count: 5,
});

describe("excursions", () => {
  it.each([
    ["a bucket reaching 8 is in 'too warm' (bounds inclusive)", { min: 4, max: 8 }, TOO_WARM, true],
    ["a bucket below 8 is not", { min: 4, max: 7.99 }, TOO_WARM, false],
    ["a bucket reaching down to 1 is in 'too cold'", { min: 1, max: 5 }, TOO_COLD, true],
    ["a bucket crossing a band touches it", { min: 5, max: 25 }, BAND, true],
    ["a bucket wholly above a band does not", { min: 21, max: 25 }, BAND, false],
  ])("%s", (_, b, range, expected) => {
    expect(touches(b, range)).toBe(expected);
  });

  it.each([
    ["the highest reading for a range open upwards", TOO_WARM, [0, 9], { value: 9, at: 120 }],
    ["the lowest reading for a range open downwards", TOO_COLD, [0, 9], { value: 0, at: 60 }],
    ["the reading farthest from a band's middle", BAND, [11, 16], { value: 11, at: 60 }],
    ["the band's edge for a bucket that crossed it", BAND, [12, 25], { value: 20, at: 120 }],
  ] as const)("takes %s as the worst", (_, range, [min, max], expected) => {
    expect(worstIn(bucket(0, min, max), range)).toEqual(expected);
  });

  it("joins neighbouring buckets into one excursion with its start, end, duration and worst value", () => {
    const buckets = [
      bucket(0, 4, 6),
      bucket(300, 6, 8.5),
      bucket(600, 8.2, 9.7),
      bucket(900, 5, 8),
      bucket(1200, 4, 6),
    ];
    expect(excursionsInRange(buckets, TOO_WARM, OPTS)).toEqual([
      { rangeId: 1, start: 300, end: 1200, duration: 900, worst: 9.7, worstAt: 720 },
    ]);
  });

  it("counts two excursions when a bucket in between stays out of the range", () => {
    const buckets = [bucket(0, 8, 9), bucket(300, 4, 6), bucket(600, 8, 10)];
    const found = excursionsInRange(buckets, TOO_WARM, OPTS);
    expect(found.map((e) => [e.start, e.end, e.worst])).toEqual([
      [0, 300, 9],
      [600, 900, 10],
    ]);
  });

  it("ends an excursion where the device went silent and starts another after", () => {
    const buckets = [bucket(0, 8, 9), bucket(3600, 8, 9)];
    expect(excursionsInRange(buckets, TOO_WARM, OPTS)).toHaveLength(2);
    const close = [bucket(0, 8, 9), bucket(600, 8, 9)];
    expect(excursionsInRange(close, TOO_WARM, OPTS)).toEqual([
      { rangeId: 1, start: 0, end: 900, duration: 900, worst: 9, worstAt: 120 },
    ]);
  });

  it("clips excursions to the window", () => {
    const found = excursionsInRange([bucket(0, 8, 9), bucket(300, 8, 9)], TOO_WARM, {
      ...OPTS,
      window: { start: 100, end: 500 },
    });
    expect(found).toEqual([{ rangeId: 1, start: 100, end: 500, duration: 400, worst: 9, worstAt: 120 }]);
  });

  it("times raw readings exactly: an excursion lasts until the first reading back in range", () => {
    const readings = readingSpans(
      [
        sampleBucket(0, 5),
        sampleBucket(60, 8.5),
        sampleBucket(120, 9),
        sampleBucket(180, 7),
        sampleBucket(240, 6),
      ],
      1200,
    );
    expect(excursionsInRange(readings, TOO_WARM, OPTS)).toEqual([
      { rangeId: 1, start: 60, end: 180, duration: 120, worst: 9, worstAt: 120 },
    ]);
  });

  it("gives a last reading before a silence no duration", () => {
    const readings = readingSpans([sampleBucket(0, 5), sampleBucket(60, 9), sampleBucket(7200, 5)], 1200);
    expect(readings[1]!.end).toBe(60);
    expect(excursionsInRange(readings, TOO_WARM, OPTS)).toEqual([
      { rangeId: 1, start: 60, end: 60, duration: 0, worst: 9, worstAt: 60 },
    ]);
  });

  it("lists every range's excursions oldest first and counts overlapping time once", () => {
    const critical: ThresholdRange = { id: 9, min: 9.5, max: null };
    const buckets = [bucket(0, 0.5, 3), bucket(300, 4, 6), bucket(600, 8, 10), bucket(900, 8, 9)];
    const found = excursionsOf(buckets, [TOO_WARM, TOO_COLD, critical], OPTS);
    expect(found.excursions.map((e) => [e.rangeId, e.start, e.end])).toEqual([
      [2, 0, 300],
      [1, 600, 1200],
      [9, 600, 900],
    ]);
    expect(found.secondsOutside).toBe(300 + 600);
  });

  it("adds up the union of excursion times", () => {
    expect(
      secondsOutside([
        { start: 0, end: 100 },
        { start: 50, end: 150 },
        { start: 300, end: 400 },
        { start: 310, end: 320 },
      ]),
    ).toBe(250);
    expect(secondsOutside([])).toBe(0);
  });
});
