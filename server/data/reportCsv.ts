import type { Db } from "../db/client.ts";
import { csvText } from "./csvExport.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import type { TemperatureScale } from "../../src/domain/temperature.ts";
import type { zoneClock } from "../../src/domain/zoneTime.ts";
import { csvFileStream } from "./csvStream.ts";
import { AsciiOut, CELL_BYTES, cellWriter, isoWriter, TIME_BYTES } from "./csvBytes.ts";
import { runReader, secondsOfMicros, type ReadingRun } from "./readingRuns.ts";

/*
 * A shared report's readings as CSV: one row per time, a column per channel, times in the
 * visitor's zone with their offset, temperatures in the visitor's scale. Read in chunks by
 * time (keyset: each chunk starts after the last time of the one before, never OFFSET);
 * the database hands over each channel's raw readings in binary (data/readingRuns.ts), Node
 * merges them by time and writes the lines as bytes with the shared rules (data/csvBytes.ts:
 * src/domain/temperature.ts rounding, src/domain/zoneTime.ts offsets), and memory holds one
 * chunk whatever the range.
 */

/** A channel as a column of the file. */
export interface ReportCsvColumn {
  channelId: number;
  kind: string;
  /** Added to every reading (Celsius for temperatures). */
  adjust: number;
  /** 'sensor name - channel name'. */
  title: string;
  units: string | null;
}

export interface ReportCsvPlan {
  columns: readonly ReportCsvColumn[];
  /** Epoch seconds, both included. */
  start: number;
  end: number;
  scale: TemperatureScale;
  clock: ReturnType<typeof zoneClock>;
  /**
   * Sees each column's raw readings of a chunk, in time order, before they become text (the
   * PDF's figures): the first `count` of `run` (times in microseconds: `secondsOfMicros`).
   */
  watch?: (column: number, run: ReadingRun, count: number) => void;
}

/** Cells (rows times channels) per chunk: about 2 MB of text. */
export const CHUNK_CELLS = 100_000;
/** The first window assumes minute samples; later ones adapt to what came. */
const FIRST_STEP_SECONDS = 60;

/** The header: "Time (America/New_York)" then "Cold Room - Temperature (°F)" per column, text cells escaped. */
export function reportCsvHeader(plan: Pick<ReportCsvPlan, "columns" | "scale" | "clock">): string {
  const names = plan.columns.map((c) => {
    const unit = isTemperatureKind(c.kind) ? (plan.scale === "C" ? "°C" : "°F") : c.units;
    return unit ? `${c.title} (${unit})` : c.title;
  });
  return [`Time (${plan.clock.zone})`, ...names].map(csvText).join(",") + "\r\n";
}

/** A window (after, upto] of the walk, in epoch seconds. */
type Window = { after: number; upto: number };

/** A chunk: each column's readings, of which the first `counts[i]` belong to it (the rest come again). */
interface Chunk {
  runs: ReadingRun[];
  counts: number[];
}

/** How many of a run's readings are at or before `micros`. */
function countUpTo(run: ReadingRun, micros: number): number {
  let n = run.length;
  while (n > 0 && run.micros[n - 1]! > micros) n--;
  return n;
}

/**
 * The keyset walk over [start, end] in time windows sized for about half the row limit, each
 * channel read on its own (data/readingRuns.ts). A window where a channel filled its limit
 * ends at the earliest last reading of the full channels (every channel is complete up to
 * there) and the next continues right after it with half the span; a short one moves past its
 * window, and a far smaller or larger one than wanted resizes the next (gaps are crossed
 * quickly, bursts split). On a PostgreSQL pool the next window (same span) is read while this
 * one is formatted; a guess that turns out wrong is dropped.
 */
async function* chunks(db: Db, plan: ReportCsvPlan, limit: number): AsyncGenerator<Chunk> {
  const ids = plan.columns.map((c) => c.channelId);
  const { read, apart } = runReader(db);
  const target = Math.max(1, Math.floor(limit / 2));
  const windowFrom = (after: number, span: number): Window => ({
    after,
    upto: Math.min(after + span, plan.end),
  });
  const readWindow = (w: Window) => read(ids, w.after, w.upto, limit);
  let span = target * FIRST_STEP_SECONDS;
  // One second before the start: the first window includes a reading at the start itself.
  let current = windowFrom(plan.start - 1, span);
  let pending = readWindow(current);
  for (;;) {
    const guess = apart && current.upto < plan.end ? windowFrom(current.upto, span) : null;
    const ahead = guess && readWindow(guess);
    // A dropped guess may still fail; its error must not go unhandled.
    ahead?.catch(() => {});
    const runs = await pending;
    const full = runs.filter((r) => r.length >= limit && r.length > 0);
    let next: Window | null;
    let counts: number[];
    if (full.length) {
      const cut = Math.min(...full.map((r) => r.micros[r.length - 1]!));
      counts = runs.map((r) => countUpTo(r, cut));
      const last = cut / 1e6;
      span = Math.max(1, Math.round((last - current.after) / 2));
      next = windowFrom(last, span);
    } else {
      counts = runs.map((r) => r.length);
      const n = Math.max(0, ...counts);
      if (n < target / 2 || n > target * 1.5)
        span = n > 0 ? Math.max(1, Math.round(span * Math.min(4, target / n))) : span * 2;
      next = current.upto < plan.end ? windowFrom(current.upto, span) : null;
    }
    // PostgreSQL reads on while this chunk is formatted; PGlite only when the reader asks.
    if (next && apart) {
      const same = guess && guess.after === next.after && guess.upto === next.upto;
      pending = same && ahead ? ahead : readWindow(next);
      // A reader that stops here leaves it unread; its error must not go unhandled.
      pending.catch(() => {});
    }
    yield { runs, counts };
    if (!next) return;
    if (!apart) pending = readWindow(next);
    current = next;
  }
}

/** One chunk's rows as CSV lines: the columns' readings merged by time, a row per time. */
function linesOf(
  { runs, counts }: Chunk,
  time: (out: AsciiOut, at: number) => void,
  cells: ((out: AsciiOut, v: number) => void)[],
): Uint8Array {
  const k = runs.length;
  const next = Array.from({ length: k }, () => 0);
  const rowBytes = TIME_BYTES + 2 + k * (CELL_BYTES + 1);
  const out = new AsciiOut(Math.max(...counts) * rowBytes);
  for (;;) {
    let t = Infinity;
    for (let c = 0; c < k; c++) if (next[c]! < counts[c]!) t = Math.min(t, runs[c]!.micros[next[c]!]!);
    if (t === Infinity) return out.done();
    out.room(rowBytes);
    time(out, secondsOfMicros(t));
    for (let c = 0; c < k; c++) {
      out.byte(44);
      const run = runs[c]!;
      const i = next[c]!;
      if (i < counts[c]! && run.micros[i] === t) {
        cells[c]!(out, run.values[i]!);
        next[c] = i + 1;
      }
    }
    out.byte(13);
    out.byte(10);
  }
}

/**
 * The file as a byte stream that reads the next chunk only when the reader asks for more
 * (a slow client holds at most one chunk in memory); cancelling stops the reading.
 */
export function reportCsvStream(
  db: Db,
  plan: ReportCsvPlan,
  rowsPerChunk = Math.max(100, Math.floor(CHUNK_CELLS / Math.max(1, plan.columns.length))),
): ReadableStream<Uint8Array> {
  const time = isoWriter(plan.clock.zone);
  const cells = plan.columns.map((c) => cellWriter(c, plan.scale));
  const lines = async function* () {
    for await (const chunk of chunks(db, plan, rowsPerChunk)) {
      chunk.runs.forEach((run, i) => plan.watch?.(i, run, chunk.counts[i]!));
      const bytes = linesOf(chunk, time, cells);
      if (bytes.length) yield bytes;
    }
  };
  return csvFileStream(reportCsvHeader(plan), plan.columns.length ? lines() : null);
}
