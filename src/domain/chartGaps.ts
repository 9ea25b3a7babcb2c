import { formatStamp } from "./reportText.ts";

/*
 * Where a chart has no data: a stretch between two readings of a series much further apart
 * than its readings usually are, or at either end of the window. The server's picture, the
 * page's interactive chart and the PDF mark the same stretches, so the rule lives here once.
 */

/** A stretch of a chart without readings, epoch seconds. */
export interface Gap {
  from: number;
  to: number;
}

/** A gap of one or more lines: the names of those without readings in it. */
export interface ChartGap extends Gap {
  names: string[];
}

/** Never a gap below this (seconds): a late push or two is not worth a mark. */
export const GAP_MIN_SECONDS = 15 * 60;
/** A gap is more than this many expected spacings between readings. */
export const GAP_SPACINGS = 3;
/** At most this many gaps are marked on a chart (the longest); the rest are too narrow to see. */
export const MAX_GAP_MARKS = 12;

export const NO_DATA = "No data";

/** [epoch seconds, value], a null value where the line breaks. */
type Point = readonly [number, number | null];

/**
 * The spacing a series' readings are expected at: its bucket width when the chart grouped
 * them (a bucket's minimum and maximum may lie up to two widths apart), else the median
 * spacing of its readings (about its device's push interval); 0 with fewer than two.
 */
export function expectedSpacing(times: readonly number[], bucketSeconds = 0): number {
  if (bucketSeconds > 0) return bucketSeconds;
  const steps = times
    .slice(1)
    .map((t, i) => t - times[i]!)
    .sort((a, b) => a - b);
  if (!steps.length) return 0;
  const mid = Math.floor(steps.length / 2);
  return steps.length % 2 ? steps[mid]! : (steps[mid - 1]! + steps[mid]!) / 2;
}

/** The longest a series may go between readings before the stretch is a gap. */
export function gapThreshold(expected: number): number {
  return Math.max(GAP_MIN_SECONDS, GAP_SPACINGS * expected);
}

/**
 * A series' gaps in the window: between consecutive readings (null points skipped) more than
 * gapThreshold apart, before its first reading and after its last; the whole window without any.
 */
export function findGaps(points: readonly Point[], window: Gap, bucketSeconds = 0): Gap[] {
  const times = points.filter((p) => p[1] !== null).map((p) => p[0]);
  if (!times.length) return window.to > window.from ? [{ ...window }] : [];
  const limit = gapThreshold(expectedSpacing(times, bucketSeconds));
  const edges = [window.from, ...times, window.to];
  const gaps: Gap[] = [];
  for (let i = 1; i < edges.length; i++) {
    const [from, to] = [edges[i - 1]!, edges[i]!];
    if (to - from > limit) gaps.push({ from, to });
  }
  return gaps;
}

/**
 * The gaps of a chart's lines as marks: overlapping gaps of several lines as one (a silent
 * device stops all its channels at once), at most MAX_GAP_MARKS of them (the longest), in time order.
 */
export function chartGaps(lines: readonly { name: string; gaps: readonly Gap[] }[]): ChartGap[] {
  const all = lines
    .flatMap((l) => l.gaps.map((g) => ({ ...g, names: [l.name] })))
    .sort((a, b) => a.from - b.from);
  const merged: ChartGap[] = [];
  for (const g of all) {
    const last = merged.at(-1);
    if (last && g.from < last.to) {
      last.to = Math.max(last.to, g.to);
      if (!last.names.includes(g.names[0]!)) last.names.push(g.names[0]!);
    } else merged.push(g);
  }
  return merged
    .sort((a, b) => b.to - b.from - (a.to - a.from))
    .slice(0, MAX_GAP_MARKS)
    .sort((a, b) => a.from - b.from);
}

/** A mark's short label: 'No data', or with the lines it concerns when others have readings. */
export function gapLabel(gap: ChartGap, lineCount: number): string {
  return gap.names.length >= lineCount ? NO_DATA : `${NO_DATA}: ${gap.names.join(", ")}`;
}

/** 'No data from Nov 22, 2026, 1:00 PM to Nov 22, 2026, 3:00 PM' in the zone. */
export function gapText(gap: Gap, zone: string): string {
  return `${NO_DATA} from ${formatStamp(gap.from, zone)} to ${formatStamp(gap.to, zone)}`;
}

/** The points with a null inside every gap that has none, so a line never bridges a gap. */
export function withBreaks<P extends Point>(
  points: readonly P[],
  gaps: readonly Gap[],
): (P | [number, null])[] {
  const out: (P | [number, null])[] = [];
  let g = 0;
  for (const p of points) {
    while (g < gaps.length && gaps[g]!.to <= p[0]) {
      const gap = gaps[g++]!;
      const last = out.at(-1);
      const broken = last && last[1] === null && last[0] >= gap.from;
      if (last && !broken && gap.from >= last[0]) out.push([Math.round((gap.from + gap.to) / 2), null]);
    }
    out.push(p);
  }
  return out;
}
