/*
 * Chart points on the wire as two lists instead of [time, value] pairs: the times as
 * differences from the one before (the first from 0), the values beside them. A report's
 * month is about 3000 points per channel on a regular grid, so the differences repeat and
 * the answer gzips to about a third of the pairs' size (measured on noisy readings).
 */

/** [epoch seconds, value]; a null value marks a gap. */
export type ChartPoint = [number, number | null];

/** Points as the wire carries them. */
export interface PackedPoints {
  times: number[];
  values: (number | null)[];
}

export function packPoints(points: readonly ChartPoint[]): PackedPoints {
  const times: number[] = [];
  const values: (number | null)[] = [];
  let before = 0;
  for (const [t, v] of points) {
    times.push(t - before);
    values.push(v);
    before = t;
  }
  return { times, values };
}

/** The pairs back; a list shorter than the other ends the points there. */
export function unpackPoints({ times, values }: PackedPoints): ChartPoint[] {
  const n = Math.min(times.length, values.length);
  const points: ChartPoint[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += times[i]!;
    points.push([t, values[i]!]);
  }
  return points;
}

/** A series with its points packed for the wire, the rest as it was. */
export function packSeries<S extends { points: ChartPoint[] }>({ points, ...rest }: S) {
  return { ...rest, ...packPoints(points) };
}

/** A series from the wire with its points as pairs again. */
export function unpackSeries<S extends PackedPoints>({ times, values, ...rest }: S) {
  return { ...rest, points: unpackPoints({ times, values }) };
}
