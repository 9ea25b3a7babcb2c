import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { csvText } from "./csvExport.ts";
import { celsius } from "../../src/domain/brand.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import { fromCelsius, type TemperatureScale } from "../../src/domain/temperature.ts";
import type { zoneClock } from "../../src/domain/zoneTime.ts";
import { csvFileStream } from "./csvStream.ts";

/*
 * A shared report's readings as CSV: one row per time, a column per channel, times in the
 * visitor's zone with their offset, temperatures in the visitor's scale. Read in chunks by
 * time (keyset: each chunk starts after the last time of the one before, never OFFSET);
 * PostgreSQL pivots a chunk into one JSON text, Node formats it with the shared rules
 * (src/domain/temperature.ts rounding, src/domain/zoneTime.ts offsets), and memory holds one
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
  /** Sees each chunk's rows [time, raw value per column or null] before they become text (the PDF's figures). */
  watch?: (rows: readonly (number | null)[][]) => void;
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

/** A column's cell: the adjusted reading, temperatures converted and rounded as the spec says. */
function cellOf(column: ReportCsvColumn, scale: TemperatureScale): (v: number | null) => string {
  const round4 = (v: number) => Math.round(v * 10_000) / 10_000 + 0;
  if (isTemperatureKind(column.kind))
    return (v) => (v === null ? "" : String(fromCelsius(celsius(v + column.adjust), scale) + 0));
  return (v) => (v === null ? "" : String(round4(v + column.adjust)));
}

type Chunk = { text: string | null; n: number; last: number | null };

/** The pivoted rows of times in (after, upto], at most `limit`, as JSON arrays [time, v1, v2, …]. */
async function readChunk(db: Db, ids: readonly number[], after: number, upto: number, limit: number) {
  const list = sql.raw(ids.map((id) => String(Math.trunc(id))).join(", "));
  const cells = ids.map(
    (id) =>
      sql`coalesce((max(value) filter (where channel_id = ${sql.raw(String(Math.trunc(id)))}))::text, 'null')`,
  );
  const line = sql.join(
    [sql`'['`, sql`extract(epoch from time)::bigint::text`, ...cells.flatMap((c) => [sql`','`, c]), sql`']'`],
    sql` || `,
  );
  const [chunk] = await rows<Chunk>(
    db,
    sql`with lines as (
          select time, ${line} as line
          from samples
          where channel_id in (${list}) and time > to_timestamp(${after}) and time <= to_timestamp(${upto})
          group by time order by time limit ${limit}
        )
        select string_agg(line, ',') as text, count(*)::int as n,
               extract(epoch from max(time))::float8 as last
        from lines`,
  );
  return chunk!;
}

/**
 * The keyset walk over [start, end] in time windows sized for about half the row limit: a
 * full chunk continues right after its last row with half the span; a short one moves past
 * its window, and a far smaller or larger one than wanted resizes the next (gaps are crossed
 * quickly, bursts split). Yields the rows of each chunk as arrays.
 */
async function* chunks(db: Db, plan: ReportCsvPlan, limit: number) {
  const ids = plan.columns.map((c) => c.channelId);
  const target = Math.max(1, Math.floor(limit / 2));
  let span = target * FIRST_STEP_SECONDS;
  // One second before the start: the first window includes a reading at the start itself.
  let after = plan.start - 1;
  while (after < plan.end) {
    const upto = Math.min(after + span, plan.end);
    const chunk = await readChunk(db, ids, after, upto, limit);
    if (chunk.n >= limit && chunk.last !== null) {
      span = Math.max(1, Math.round((chunk.last - after) / 2));
      after = chunk.last;
    } else {
      if (chunk.n < target / 2 || chunk.n > target * 1.5)
        span = chunk.n > 0 ? Math.max(1, Math.round(span * Math.min(4, target / chunk.n))) : span * 2;
      after = upto;
    }
    if (chunk.text) yield JSON.parse(`[${chunk.text}]`) as (number | null)[][];
  }
}

/** One chunk's rows as CSV lines. */
function linesOf(
  table: readonly (number | null)[][],
  plan: ReportCsvPlan,
  cells: ((v: number | null) => string)[],
) {
  let out = "";
  for (const row of table) {
    out += plan.clock.iso(row[0]!);
    for (let i = 0; i < cells.length; i++) out += "," + cells[i]!(row[i + 1] ?? null);
    out += "\r\n";
  }
  return out;
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
  const cells = plan.columns.map((c) => cellOf(c, plan.scale));
  const lines = async function* () {
    for await (const chunk of chunks(db, plan, rowsPerChunk)) {
      plan.watch?.(chunk);
      yield linesOf(chunk, plan, cells);
    }
  };
  return csvFileStream(reportCsvHeader(plan), plan.columns.length ? lines() : null);
}
