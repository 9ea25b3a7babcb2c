import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { csvFileStream } from "./csvStream.ts";
import { isTemperatureKind, unitIn } from "../../src/domain/device.ts";
import type { TemperatureScale } from "../../src/domain/temperature.ts";

/*
 * The device data download: one CSV row per time and a column per channel, streamed in
 * chunks read by time (keyset: each chunk starts after the last time of the one before, never
 * OFFSET). PostgreSQL pivots and formats each chunk into one text value, so Node only passes
 * text along, and memory holds one chunk whatever the range.
 */

/** A channel as a column of the file. */
export interface CsvColumn {
  channelId: number;
  kind: string;
  /** The channel's adjustment, added to every value (Celsius for temperatures). */
  adjust: number;
  /** "Cold Room - Temperature": the person's name for the channel, before its unit. */
  title: string;
  units: string | null;
}

export interface CsvPlan {
  columns: readonly CsvColumn[];
  start: Date;
  end: Date;
  scale: TemperatureScale;
}

/** A chunk holds at most this many cells (rows times channels), about 2 MB of text. */
export const CHUNK_CELLS = 100_000;
/** The first chunk's time window assumes minute samples; each later one adapts to what came. */
const MINUTE_MS = 60_000;

/**
 * Text cells starting like a formula (= + - @, tab, CR) get a leading apostrophe; quotes as CSV
 * needs. A cell holding ';' or a tab is quoted too: a spreadsheet set to split on them (Excel in
 * many European locales splits on ';') would otherwise start a new cell there, which may be a
 * formula.
 */
export function csvText(cell: string): string {
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",;\t\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The header line: "Time (UTC)" then "Cold Room - Temperature (°C)" per column. */
export function csvHeader(plan: Pick<CsvPlan, "columns" | "scale">): string {
  const names = plan.columns.map((c) => {
    const unit = unitIn(c.kind, c.units, plan.scale);
    return unit ? `${c.title} (${unit})` : c.title;
  });
  return ["Time (UTC)", ...names].map(csvText).join(",") + "\r\n";
}

/**
 * SQL of one column's value in a pivoted row (NULL, so an empty cell, when the channel has no
 * reading then): the adjusted reading, temperatures in the person's scale rounded as the spec
 * rounds them (C 2, F 1 decimals). Floating-point arithmetic, not numeric: it is several
 * times faster, and float8's text is the shortest that reads back exactly ("+ 0" turns -0
 * into 0).
 */
function cellSql(column: CsvColumn, scale: TemperatureScale): SQL {
  const raw = sql`max(value) filter (where channel_id = ${sql.raw(String(column.channelId))})`;
  const value = column.adjust === 0 ? raw : sql`(${raw} + ${column.adjust}::float8)`;
  if (isTemperatureKind(column.kind))
    return scale === "C"
      ? sql`round(${value} * 100) / 100 + 0`
      : sql`round((${value} * 9 / 5 + 32) * 10) / 10 + 0`;
  return column.adjust === 0 ? raw : sql`round(${value} * 10000) / 10000 + 0`;
}

/** What a chunk read: its lines, how many, and its last time (exact, as ISO text and in ms). */
type Chunk = { text: string | null; n: number; last: string | null; lastMs: number | null };

/**
 * The lines for times in (after, upto], at most `limit` of them, oldest first. `concat` leaves
 * a NULL cell empty.
 */
async function readChunk(db: Db, plan: CsvPlan, after: string, upto: string, limit: number) {
  const ids = sql.raw(plan.columns.map((c) => String(Math.trunc(c.channelId))).join(", "));
  const cells = plan.columns.flatMap((c) => [sql`','`, cellSql(c, plan.scale)]);
  // The timestamp's own text (the ISO DateStyle the drivers' date parsing relies on too) is
  // much cheaper than to_char; samples are stored to the second.
  const line = sql.join([sql`(time at time zone 'UTC')::text`, ...cells], sql`, `);
  const [chunk] = await rows<Chunk>(
    db,
    sql`with lines as (
          select time, concat(${line}) as line
          from samples
          where channel_id in (${ids}) and time > ${after}::timestamptz and time <= ${upto}::timestamptz
          group by time order by time limit ${limit}
        )
        -- The lines arrive in time order (ORDER BY ... LIMIT above); sorting them again in the
        -- aggregate would only repeat that work.
        select string_agg(line, E'\r\n') as text, count(*)::int as n,
               to_char(max(time) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last,
               (extract(epoch from max(time)) * 1000)::float8 as "lastMs"
        from lines`,
  );
  return chunk!;
}

/** A time window (after, upto] to read: `after` is exact text, so a walk resumes precisely. */
type Window = { after: string; afterMs: number; uptoMs: number };
const sameWindow = (a: Window, b: Window) => a.after === b.after && a.uptoMs === b.uptoMs;

/**
 * The keyset walk over [start, end] in time windows sized for about half the row limit. A
 * full chunk (the limit reached) continues right after its last row with half the span that
 * filled it; a short one moves past its window, and a far smaller or larger one than wanted
 * resizes the next, so gaps are crossed quickly and bursts split. Rows per chunk never
 * exceed the limit. While one window is read, the next (same span) is read beside it: on
 * PostgreSQL two connections work at once; a guess that turns out wrong is dropped.
 */
async function* chunks(db: Db, plan: CsvPlan, limit: number) {
  const end = plan.end.getTime();
  const target = Math.max(1, Math.floor(limit / 2));
  const read = (w: Window) => readChunk(db, plan, w.after, new Date(w.uptoMs).toISOString(), limit);
  const windowAfter = (after: string, afterMs: number, span: number): Window => ({
    after,
    afterMs,
    uptoMs: Math.min(afterMs + span, end),
  });
  const following = (w: Window, span: number) =>
    w.uptoMs < end ? windowAfter(new Date(w.uptoMs).toISOString(), w.uptoMs, span) : null;
  let span = target * MINUTE_MS;
  // One millisecond before the start: the first chunk includes a sample at the start itself.
  let current = windowAfter(new Date(plan.start.getTime() - 1).toISOString(), plan.start.getTime() - 1, span);
  let pending = read(current);
  for (;;) {
    const guess = following(current, span);
    const ahead = guess && read(guess);
    // A dropped guess may still fail; its error must not go unhandled.
    ahead?.catch(() => {});
    const chunk = await pending;
    let next: Window | null;
    if (chunk.n >= limit && chunk.last !== null && chunk.lastMs !== null) {
      span = Math.max(1000, Math.round((chunk.lastMs - current.afterMs) / 2));
      next = windowAfter(chunk.last, chunk.lastMs, span);
    } else {
      if (chunk.n < target / 2 || chunk.n > target * 1.5)
        span = chunk.n > 0 ? Math.round(span * Math.min(4, target / chunk.n)) : span * 2;
      next = following(current, span);
    }
    if (next) pending = ahead && guess && sameWindow(guess, next) ? ahead : read(next);
    if (chunk.text) yield chunk.text;
    if (!next) return;
    current = next;
  }
}

/**
 * The whole file as a byte stream that reads the next chunk only when the reader asks for
 * more (backpressure: a slow client holds at most one chunk in memory). Cancelling (the
 * client went away) stops the reading.
 */
export function csvStream(
  db: Db,
  plan: CsvPlan,
  rowsPerChunk = Math.max(100, Math.floor(CHUNK_CELLS / Math.max(1, plan.columns.length))),
): ReadableStream<Uint8Array> {
  const lines = async function* (source: AsyncGenerator<string, void, undefined>) {
    for await (const text of source) yield text + "\r\n";
  };
  return csvFileStream(csvHeader(plan), plan.columns.length ? lines(chunks(db, plan, rowsPerChunk)) : null);
}
