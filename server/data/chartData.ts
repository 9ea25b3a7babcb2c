import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
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
const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** Each channel's rows of a string_agg, "a,b,c;d,e,f", as number lists (one text per channel
 * keeps PGlite from converting thousands of rows field by field). */
async function aggregated(db: Db, query: ReturnType<typeof sql>): Promise<Map<number, number[][]>> {
  const found = await rows<{ id: number; data: string | null }>(db, query);
  return new Map(
    found.map((r) => [r.id, r.data ? r.data.split(";").map((row) => row.split(",").map(Number)) : []]),
  );
}

/** Rolled-up buckets of `level` starting in [from, to). */
function rollupRows(db: Db, ids: readonly number[], level: number, from: number, to: number) {
  const epoch = (col: string) => sql.raw(`date_part('epoch', ${col})`);
  return aggregated(
    db,
    sql`select channel_id as id, string_agg(concat_ws(',', ${epoch("bucket")}, min_value, max_value,
          ${epoch("min_at")}, ${epoch("max_at")}, ${epoch("first_at")}, ${epoch("last_at")}, sum_value,
          sample_count), ';') as data
        from sample_rollups
        where channel_id in (${idList(ids)}) and level = ${level}
          and bucket >= to_timestamp(${from}) and bucket < to_timestamp(${to})
        group by channel_id`,
  );
}

/** Raw samples in the given [from, to] spans (to inclusive only for the last). */
function sampleRows(db: Db, ids: readonly number[], spans: readonly [number, number, boolean][]) {
  const inSpans = sql.join(
    spans.map(
      ([from, to, inclusive]) =>
        sql`(time >= to_timestamp(${from}) and time ${sql.raw(inclusive ? "<=" : "<")} to_timestamp(${to}))`,
    ),
    sql` or `,
  );
  return aggregated(
    db,
    sql`select channel_id as id, string_agg(concat_ws(',', date_part('epoch', time), value), ';') as data
        from samples where channel_id in (${idList(ids)}) and (${inSpans}) group by channel_id`,
  );
}

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
    sum: r[7]! + adjust * r[8]!,
    count: r[8]!,
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
const byTime = (a: Bucket, b: Bucket) => a.firstAt - b.firstAt;

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
  const raw = await sampleRows(
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
    ? await rollupRows(db, ids, level, inner.from, inner.to)
    : new Map<number, number[][]>();
  return new Map(
    list.map((c) => [
      c.channelId,
      [
        ...(raw.get(c.channelId) ?? []).map(fromSample(c.adjust)),
        ...(rolled.get(c.channelId) ?? []).map(fromRollup(useRollups ? level : 0, c.adjust)),
      ].sort(byTime),
    ]),
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
  byChannel: ReadonlyMap<number, Bucket[]>,
) {
  const out = new Map<number, { buckets: Bucket[]; precision: number }>();
  const spans = new Map(list.map((c) => [c.channelId, touchingSpans(byChannel.get(c.channelId)!, c.ranges)]));
  const needed = [...spans.values()].flat().reduce((n, [from, to]) => n + (to - from) / FINEST, 0);
  const refine = level > FINEST && needed > 0 && needed <= MAX_REFINE_BUCKETS;
  const fine = refine ? await finestIn(db, spans) : new Map<number, number[][]>();
  for (const c of list) {
    const all = byChannel.get(c.channelId)!;
    if (!refine) {
      out.set(c.channelId, { buckets: readingSpans(all, c.gapSeconds), precision: level });
      continue;
    }
    const inSpan = (b: Bucket) =>
      spans.get(c.channelId)!.some(([from, to]) => b.start >= from && b.end <= to && b.start !== b.end);
    const merged = [
      ...all.filter((b) => !inSpan(b)),
      ...(fine.get(c.channelId) ?? []).map(fromRollup(FINEST, c.adjust)),
    ];
    out.set(c.channelId, { buckets: readingSpans(merged.sort(byTime), c.gapSeconds), precision: FINEST });
  }
  return out;
}

/** The finest level's buckets inside each channel's spans. */
function finestIn(db: Db, spans: ReadonlyMap<number, readonly [number, number][]>) {
  const flat = [...spans].flatMap(([id, list]) => list.map(([from, to]) => [id, from, to] as const));
  const column = (i: number) => sql`${`{${flat.map((f) => f[i]).join(",")}}`}::float8[]`;
  const epoch = (col: string) => sql.raw(`date_part('epoch', r.${col})`);
  return aggregated(
    db,
    sql`select r.channel_id as id, string_agg(concat_ws(',', ${epoch("bucket")}, r.min_value, r.max_value,
          ${epoch("min_at")}, ${epoch("max_at")}, ${epoch("first_at")}, ${epoch("last_at")}, r.sum_value,
          r.sample_count), ';') as data
        from unnest(${column(0)}, ${column(1)}, ${column(2)}) as t(c, f, e)
        join sample_rollups r on r.channel_id = t.c::int and r.level = ${FINEST}
          and r.bucket >= to_timestamp(t.f) and r.bucket < to_timestamp(t.e)
        group by r.channel_id`,
  );
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
  const byChannel = await windowBuckets(db, list, level, window);
  const forExcursions = await excursionBuckets(db, list, level, byChannel);
  return list.map((c) => {
    const buckets = byChannel.get(c.channelId)!;
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
      stats: summarize(buckets),
      excursions: found.excursions.map(({ rangeId, ...e }) => ({ thresholdRangeId: rangeId, ...e })),
      secondsOutside: found.secondsOutside,
      excursionPrecision: ex.precision,
    };
  });
}
