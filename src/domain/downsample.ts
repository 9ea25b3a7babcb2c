// How a report chart turns a window of samples into at most ~3,000 points per series without
// hiding what matters: each bucket keeps its minimum and maximum (a one-minute spike in a year
// still shows) and a device that went silent leaves a gap (a null point), never a straight line.

/** Widths (seconds) of the rolled-up levels kept at ingestion, finest first. */
export const ROLLUP_LEVELS = [300, 900, 3600, 10_800] as const;
export type RollupLevel = (typeof ROLLUP_LEVELS)[number];
/** A chart reads the coarsest level that still gives this many buckets over its window. */
export const MIN_BUCKETS = 1500;
/** At most this many points per series (two per bucket), besides the nulls of gaps. */
export const MAX_POINTS = 3000;
/** A channel is silent (a gap) after this many of its device's push intervals without a reading. */
export const GAP_INTERVALS = 2;

/**
 * Samples summarised over [start, end): a rolled-up bucket, a group of them, or one raw
 * sample (start = end = its time). Times are epoch seconds; values as stored (Celsius for
 * temperatures) plus the channel's adjustment.
 */
export interface Bucket {
  start: number;
  end: number;
  min: number;
  max: number;
  minAt: number;
  maxAt: number;
  firstAt: number;
  lastAt: number;
  sum: number;
  count: number;
}

/** A chart point: [epoch seconds, value], or [time, null] where the line must break. */
export type Point = [number, number | null];

/** The coarsest rolled-up level giving at least MIN_BUCKETS buckets over the window; 0 for raw samples. */
export function pickLevel(rangeSeconds: number): 0 | RollupLevel {
  let chosen: 0 | RollupLevel = 0;
  for (const level of ROLLUP_LEVELS) if (rangeSeconds / level >= MIN_BUCKETS) chosen = level;
  return chosen;
}

/**
 * The width of the chart's own buckets: a whole number of level buckets (any width for raw
 * samples) so that the window holds at most MAX_POINTS / 2 of them.
 */
export function groupWidth(rangeSeconds: number, level: 0 | RollupLevel): number {
  const perGroup = Math.ceil(rangeSeconds / (MAX_POINTS / 2));
  if (level === 0) return Math.max(1, perGroup);
  return Math.max(1, Math.ceil(perGroup / level)) * level;
}

/** One raw sample as a bucket of its own. */
export function sampleBucket(time: number, value: number): Bucket {
  return {
    start: time,
    end: time,
    min: value,
    max: value,
    minAt: time,
    maxAt: time,
    firstAt: time,
    lastAt: time,
    sum: value,
    count: 1,
  };
}

/** Two buckets as one (the earlier time wins a tie of extremes). */
export function mergeTwo(a: Bucket, b: Bucket): Bucket {
  const lowA = a.min < b.min || (a.min === b.min && a.minAt <= b.minAt);
  const highA = a.max > b.max || (a.max === b.max && a.maxAt <= b.maxAt);
  return {
    start: Math.min(a.start, b.start),
    end: Math.max(a.end, b.end),
    min: lowA ? a.min : b.min,
    minAt: lowA ? a.minAt : b.minAt,
    max: highA ? a.max : b.max,
    maxAt: highA ? a.maxAt : b.maxAt,
    firstAt: Math.min(a.firstAt, b.firstAt),
    lastAt: Math.max(a.lastAt, b.lastAt),
    sum: a.sum + b.sum,
    count: a.count + b.count,
  };
}

/**
 * Buckets (sorted by time) merged into groups `width` seconds wide, aligned to multiples of
 * the width since the epoch, so a rolling window's groups stay put from one refresh to the next.
 */
export function groupBuckets(buckets: readonly Bucket[], width: number): Bucket[] {
  const out: Bucket[] = [];
  let key = Number.NaN;
  for (const b of buckets) {
    const k = Math.floor(b.firstAt / width);
    const last = out.at(-1);
    if (last && k === key) out[out.length - 1] = mergeTwo(last, b);
    else {
      out.push({ ...b, start: k * width, end: (k + 1) * width });
      key = k;
    }
  }
  return out;
}

/**
 * The series of a chart: each bucket's minimum and maximum at the times they were read (one
 * point when they coincide), and a null point wherever the channel was silent for longer
 * than `gapSeconds` between two readings.
 */
export function chartPoints(buckets: readonly Bucket[], gapSeconds: number): Point[] {
  const points: Point[] = [];
  let previous: Bucket | undefined;
  for (const b of buckets) {
    if (previous && b.firstAt - previous.lastAt > gapSeconds)
      points.push([Math.round((previous.lastAt + b.firstAt) / 2), null]);
    if (b.minAt === b.maxAt) points.push([b.minAt, b.min]);
    else if (b.minAt < b.maxAt) points.push([b.minAt, b.min], [b.maxAt, b.max]);
    else points.push([b.maxAt, b.max], [b.minAt, b.min]);
    previous = b;
  }
  return points;
}

/** How long a channel may stay silent before its chart shows a gap. */
export function gapSecondsFor(pushIntervalSeconds: number): number {
  return GAP_INTERVALS * Math.max(60, pushIntervalSeconds);
}

/** Minimum, maximum and average over buckets, or null when there is no reading. */
export function summarize(
  buckets: readonly Bucket[],
): { min: number; max: number; avg: number; count: number } | null {
  if (!buckets.length) return null;
  const all = buckets.reduce(mergeTwo);
  return { min: all.min, max: all.max, avg: all.sum / all.count, count: all.count };
}
