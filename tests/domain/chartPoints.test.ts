import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  packPoints,
  packSeries,
  unpackPoints,
  unpackSeries,
  type ChartPoint,
} from "../../src/domain/chartPoints.ts";

/** A month of noisy readings as a report's chart sends them: min and max per 15-minute bucket. */
function month(): ChartPoint[] {
  const points: ChartPoint[] = [];
  let seed = 7;
  const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (let i = 0; i < 1500; i++) {
    const t = 1_700_000_000 + i * 1728;
    const base = 20 + 3 * Math.sin(i / 50);
    points.push(
      [t, Math.round((base + noise()) * 100) / 100],
      [t + 600, Math.round((base + noise()) * 100) / 100],
    );
  }
  points.splice(700, 2, [1_700_000_000 + 350 * 1728, null]);
  return points;
}

describe("chart points on the wire", () => {
  it("sends times as differences from the one before, the first from 0", () => {
    expect(
      packPoints([
        [100, 1],
        [160, null],
        [220, 3.5],
      ]),
    ).toEqual({ times: [100, 60, 60], values: [1, null, 3.5] });
  });

  it("gives the same points back, gaps included", () => {
    const points = month();
    expect(unpackPoints(packPoints(points))).toEqual(points);
    expect(unpackPoints({ times: [], values: [] })).toEqual([]);
  });

  it("keeps the rest of a series as it was", () => {
    const series = { channelId: 4, bucketSeconds: 1728, points: month() };
    const packed = packSeries(series);
    expect(packed).not.toHaveProperty("points");
    expect(unpackSeries(packed)).toEqual(series);
  });

  it("gzips a month to at most half the size of the pairs", () => {
    const points = month();
    const pairs = gzipSync(JSON.stringify(points)).length;
    const packed = gzipSync(JSON.stringify(packPoints(points))).length;
    expect(packed).toBeLessThan(pairs / 2);
  });
});
