// Excursions for auditors: when a channel's readings were inside one of its threshold ranges
// (the bands a report marks as out of specification, e.g. 'Cold room too warm' from 8 °C up),
// for how long, and how far they went. Computed from buckets (rolled-up minimum and maximum,
// or raw readings): an excursion counts from the start of the first bucket whose readings
// reached the range to the end of the last one, so its times are exact to the bucket's width
// and its duration is an upper bound by at most one bucket at each end. The worst value is exact.
import type { Bucket } from "./downsample.ts";

/** A band of values; null leaves that side open. Bounds are inclusive. Celsius for temperatures. */
export interface ThresholdRange {
  id: number;
  min: number | null;
  max: number | null;
}

export interface Excursion {
  rangeId: number;
  /** Epoch seconds. */
  start: number;
  end: number;
  duration: number;
  /** The reading deepest in the range, and when it was read. */
  worst: number;
  worstAt: number;
}

/** True when some reading of the bucket lay inside the range (its [min, max] overlaps it). */
export function touches(b: Pick<Bucket, "min" | "max">, r: ThresholdRange): boolean {
  return (r.min === null || b.max >= r.min) && (r.max === null || b.min <= r.max);
}

/**
 * The bucket's reading deepest in the range: the highest for a range open upwards, the lowest
 * for one open downwards, else the one farthest from the band's middle (clamped into the band,
 * since a bucket that crossed it knows only its extremes).
 */
export function worstIn(b: Bucket, r: ThresholdRange): { value: number; at: number } {
  if (r.max === null) return { value: b.max, at: b.maxAt };
  if (r.min === null) return { value: b.min, at: b.minAt };
  const clamp = (v: number) => Math.min(r.max!, Math.max(r.min!, v));
  const middle = (r.min + r.max) / 2;
  const high = { value: clamp(b.max), at: b.maxAt };
  const low = { value: clamp(b.min), at: b.minAt };
  return Math.abs(high.value - middle) >= Math.abs(low.value - middle) ? high : low;
}

const deeper = (r: ThresholdRange, a: number, b: number) =>
  r.max === null
    ? b > a
    : r.min === null
      ? b < a
      : Math.abs(b - (r.min + r.max) / 2) > Math.abs(a - (r.min + r.max) / 2);

/**
 * Raw readings (buckets with start = end) made to last until the next reading when it came
 * within `gapSeconds` (a reading before a silence lasts no time), so a run of readings in a
 * range covers the time between them. Rolled-up buckets keep their own span.
 */
export function readingSpans(buckets: readonly Bucket[], gapSeconds: number): Bucket[] {
  return buckets.map((b, i) => {
    const next = buckets[i + 1];
    if (b.start !== b.end || !next || next.firstAt - b.lastAt > gapSeconds) return b;
    return { ...b, end: next.firstAt };
  });
}

/**
 * The excursions into one range over buckets sorted by time (one contiguous stretch of data):
 * runs of buckets that touch the range, broken by a bucket that does not or by a silence
 * longer than `gapSeconds`, clipped to the window.
 */
export function excursionsInRange(
  buckets: readonly Bucket[],
  range: ThresholdRange,
  opts: { gapSeconds: number; window: { start: number; end: number } },
): Excursion[] {
  const out: Excursion[] = [];
  let run: Excursion | null = null;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastEnd = Number.NEGATIVE_INFINITY;
  const close = () => {
    if (run) out.push({ ...run, duration: run.end - run.start });
    run = null;
  };
  for (const b of buckets) {
    const silent = b.firstAt - lastAt > opts.gapSeconds || b.start - lastEnd > opts.gapSeconds;
    if (!touches(b, range) || silent) close();
    if (touches(b, range)) {
      const w = worstIn(b, range);
      const start = Math.max(b.start, opts.window.start);
      const end = Math.min(b.end, opts.window.end);
      if (!run) run = { rangeId: range.id, start, end, duration: 0, worst: w.value, worstAt: w.at };
      else {
        run.end = Math.max(run.end, end);
        if (deeper(range, run.worst, w.value)) Object.assign(run, { worst: w.value, worstAt: w.at });
      }
    }
    lastAt = b.lastAt;
    lastEnd = b.end;
  }
  close();
  return out;
}

/** Seconds covered by the union of the excursions (overlapping ranges count once). */
export function secondsOutside(excursions: readonly Pick<Excursion, "start" | "end">[]): number {
  const sorted = [...excursions].sort((a, b) => a.start - b.start);
  let total = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const e of sorted) {
    const from = Math.max(e.start, reach);
    if (e.end > from) total += e.end - from;
    reach = Math.max(reach, e.end);
  }
  return total;
}

/** Every range's excursions over the buckets, oldest first, and the time spent in any of them. */
export function excursionsOf(
  buckets: readonly Bucket[],
  ranges: readonly ThresholdRange[],
  opts: { gapSeconds: number; window: { start: number; end: number } },
): { excursions: Excursion[]; secondsOutside: number } {
  const all = ranges
    .flatMap((r) => excursionsInRange(buckets, r, opts))
    .sort((a, b) => a.start - b.start || a.rangeId - b.rangeId);
  return { excursions: all, secondsOutside: secondsOutside(all) };
}
