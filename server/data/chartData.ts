import type { Db } from "../db/client.ts";
import { readRollups, readRollupsIn, readSamples, type RolledRows } from "./rollupReads.ts";
import {
  chartPoints,
  groupBuckets,
  groupWidth,
  MAX_POINTS,
  pickLevel,
  ROLLUP_LEVELS,
  summarize,
  type Bucket,
  type RollupLevel,
} from "../../src/domain/downsample.ts";
import { excursionsOf, readingSpans, touches, type ThresholdRange } from "../../src/domain/excursions.ts";
import type { TimeWindow } from "../../src/domain/reportWindow.ts";
import type { ReportSeries } from "../../src/api/reports.ts";

/** A channel as the chart reads it. */
export interface ChartChannel {
  channelId: number;
  channelKey: string;
  adjust: number;
  /** Silence longer than this is a gap (src/domain/downsample.ts gapSecondsFor). */
  gapSeconds: number;
  ranges: readonly ThresholdRange[];
}

const FINEST = ROLLUP_LEVELS[0];
/** Finest-level buckets read to sharpen excursions, over all channels of one call. */
const MAX_REFINE_BUCKETS = 20_000;

const round = (v: number) => Math.round(v * 10_000) / 10_000;
const byTime = (a: Bucket, b: Bucket) => a.firstAt - b.firstAt;

/** Rolled-up rows as buckets with the adjustment applied (their sums are the channel's totals). */
const fromRollup =
  (level: number, adjust: number) =>
  (r: number[]): Bucket => ({
    start: r[0]!,
    end: r[0]! + level,
    min: round(r[1]! + adjust),
    max: round(r[2]! + adjust),
    minAt: r[3]!,
    maxAt: r[4]!,
    firstAt: r[5]!,
    lastAt: r[6]!,
    sum: 0,
    count: 0,
  });
const fromSample =
  (adjust: number) =>
  (r: number[]): Bucket => {
    const v = round(r[1]! + adjust);
    return {
      start: r[0]!,
      end: r[0]!,
      min: v,
      max: v,
      minAt: r[0]!,
      maxAt: r[0]!,
      firstAt: r[0]!,
      lastAt: r[0]!,
      sum: v,
      count: 1,
    };
  };

/** A channel's buckets over the window and its statistics. */
interface Read {
  buckets: Bucket[];
  stats: ReportSeries["stats"];
}

/** Statistics of the window: extremes of its buckets, sums of raw samples and rolled-up totals. */
function statsOf(
  raw: readonly Bucket[],
  rolled: RolledRows | undefined,
  buckets: readonly Bucket[],
  adjust: number,
) {
  const count = raw.length + (rolled?.count ?? 0);
  const all = summarize(buckets);
  if (!count || !all) return null;
  const sum = raw.reduce((n, b) => n + b.sum, 0) + (rolled ? rolled.total + adjust * rolled.count : 0);
  return { min: all.min, max: all.max, avg: round(sum / count), count };
}

/**
 * The window's buckets per channel at `level`: whole rolled-up buckets inside it and the raw
 * samples of the partial buckets at its two ends (so statistics are exact to the window), or
 * every raw sample when the level is 0.
 */
async function windowBuckets(db: Db, list: readonly ChartChannel[], level: 0 | RollupLevel, w: TimeWindow) {
  const ids = list.map((c) => c.channelId);
  const inner = level
    ? { from: Math.ceil(w.start / level) * level, to: Math.floor(w.end / level) * level }
    : null;
  const useRollups = inner !== null && inner.from < inner.to;
  const raw = await readSamples(
    db,
    ids,
    useRollups
      ? [
          [w.start, inner.from, false],
          [inner.to, w.end, true],
        ]
      : [[w.start, w.end, true]],
  );
  const rolled = useRollups
    ? await readRollups(db, ids, level, inner.from, inner.to)
    : new Map<number, RolledRows>();
  return new Map(
    list.map((c): [number, Read] => {
      const samples = (raw.get(c.channelId) ?? []).map(fromSample(c.adjust));
      const r = rolled.get(c.channelId);
      const buckets = [...samples, ...(r?.rows ?? []).map(fromRollup(level, c.adjust))].sort(byTime);
      return [c.channelId, { buckets, stats: statsOf(samples, r, buckets, c.adjust) }];
    }),
  );
}

/** The spans [from, to) of rolled-up buckets that reached one of the channel's ranges. */
function touchingSpans(buckets: readonly Bucket[], ranges: readonly ThresholdRange[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const b of buckets) {
    if (b.start === b.end || !ranges.some((r) => touches(b, r))) continue;
    const last = spans.at(-1);
    if (last && last[1] === b.start) last[1] = b.end;
    else spans.push([b.start, b.end]);
  }
  return spans;
}

/**
 * Excursions are read at the finest level where the chart's coarser buckets reached a range
 * (few, since excursions are rare), within MAX_REFINE_BUCKETS; beyond that the chart's own
 * buckets are used. Returns per channel the buckets to read excursions from and their precision.
 */
async function excursionBuckets(
  db: Db,
  list: readonly ChartChannel[],
  level: 0 | RollupLevel,
  reads: ReadonlyMap<number, Read>,
) {
  const out = new Map<number, { buckets: Bucket[]; precision: number }>();
  const spans = new Map(
    list.map((c) => [c.channelId, touchingSpans(reads.get(c.channelId)!.buckets, c.ranges)]),
  );
  const needed = [...spans.values()].flat().reduce((n, [from, to]) => n + (to - from) / FINEST, 0);
  const refine = level > FINEST && needed > 0 && needed <= MAX_REFINE_BUCKETS;
  const fine = refine ? await readRollupsIn(db, FINEST, spans) : new Map<number, RolledRows>();
  // Without any bucket in a range, that much is known to the finest level too.
  const precision = level === 0 ? 0 : refine || needed === 0 ? FINEST : level;
  for (const c of list) {
    const all = reads.get(c.channelId)!.buckets;
    const own = spans.get(c.channelId)!;
    if (!refine || !own.length) {
      out.set(c.channelId, { buckets: readingSpans(all, c.gapSeconds), precision });
      continue;
    }
    const inSpan = (b: Bucket) =>
      b.start !== b.end && own.some(([from, to]) => b.start >= from && b.end <= to);
    const sharper = (fine.get(c.channelId)?.rows ?? []).map(fromRollup(FINEST, c.adjust));
    const merged = [...all.filter((b) => !inSpan(b)), ...sharper].sort(byTime);
    out.set(c.channelId, { buckets: readingSpans(merged, c.gapSeconds), precision });
  }
  return out;
}

/**
 * The chart of a report window: per channel at most ~MAX_POINTS points read from the coarsest
 * rolled-up level that keeps MIN_BUCKETS buckets (each bucket's min and max where they were
 * read, nulls where the device was silent), the window's statistics and the excursions.
 */
export async function chartData(
  db: Db,
  list: readonly ChartChannel[],
  window: TimeWindow,
): Promise<ReportSeries[]> {
  if (!list.length) return [];
  const range = window.end - window.start;
  const level = pickLevel(range);
  const reads = await windowBuckets(db, list, level, window);
  const forExcursions = await excursionBuckets(db, list, level, reads);
  return list.map((c) => {
    const { buckets, stats } = reads.get(c.channelId)!;
    const raw = level === 0 && buckets.length <= MAX_POINTS;
    const width = raw ? 0 : groupWidth(range, level);
    const points = chartPoints(raw ? buckets : groupBuckets(buckets, width), c.gapSeconds);
    const ex = forExcursions.get(c.channelId)!;
    const found = excursionsOf(ex.buckets, c.ranges, { gapSeconds: c.gapSeconds, window });
    return {
      channelId: c.channelId,
      channelKey: c.channelKey,
      bucketSeconds: width,
      points,
      stats,
      excursions: found.excursions.map(({ rangeId, ...e }) => ({ thresholdRangeId: rangeId, ...e })),
      secondsOutside: found.secondsOutside,
      excursionPrecision: ex.precision,
    };
  });
}
