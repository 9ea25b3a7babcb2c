import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import type { TemperatureScale } from "../../src/domain/temperature.ts";

/*
 * The device data download: one CSV row per time and a column per channel, streamed in
 * chunks read by time (keyset: each chunk starts after the last time of the one before).
 * PostgreSQL pivots and formats each chunk into one text value, so Node only passes text
 * along, and memory holds one chunk whatever the range.
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

/** Each chunk holds at most this many samples of each channel (rows: at most this times columns). */
export const CHUNK_SAMPLES = 20_000;

/** Text cells starting like a formula (= + - @, tab, CR) get a leading apostrophe; quotes as CSV needs. */
export function csvText(cell: string): string {
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The unit a column shows: temperatures in the person's scale, others as stored. */
function unitOf(column: CsvColumn, scale: TemperatureScale): string | null {
  if (isTemperatureKind(column.kind)) return scale === "C" ? "°C" : "°F";
  return column.units;
}

/** The header line: "Time (UTC)" then "Cold Room - Temperature (°C)" per column. */
export function csvHeader(plan: Pick<CsvPlan, "columns" | "scale">): string {
  const names = plan.columns.map((c) => {
    const unit = unitOf(c, plan.scale);
    return unit ? `${c.title} (${unit})` : c.title;
  });
  return ["Time (UTC)", ...names].map(csvText).join(",") + "\r\n";
}

/**
 * SQL text of one column's value in a pivoted row: the adjusted reading, temperatures in the
 * person's scale rounded as the spec rounds them (C 2, F 1 decimals), empty when the channel
 * has no reading at that time.
 */
function cellSql(column: CsvColumn, scale: TemperatureScale): SQL {
  const raw = sql`max(value) filter (where channel_id = ${column.channelId})`;
  const value = column.adjust === 0 ? raw : sql`(${raw} + ${column.adjust}::float8)`;
  if (isTemperatureKind(column.kind)) {
    const scaled = scale === "C" ? value : sql`(${value} * 9 / 5 + 32)`;
    return sql`coalesce(trim_scale(round(${scaled}::numeric, ${scale === "C" ? 2 : 1}))::text, '')`;
  }
  if (column.adjust === 0) return sql`coalesce(${raw}::text, '')`;
  return sql`coalesce(trim_scale(round(${value}::numeric, 4))::text, '')`;
}

/** A timestamptz as exact text, so the next chunk starts precisely after it. */
type Chunk = { text: string | null; upto: string; last: boolean };

/**
 * One chunk after `after` (exclusive): the chunk ends at the earliest time at which some
 * channel has CHUNK_SAMPLES samples, or at the plan's end, and holds every channel's samples
 * up to there, pivoted into CSV lines.
 */
async function nextChunk(db: Db, plan: CsvPlan, after: string, limit: number): Promise<Chunk> {
  const ids = sql.join(
    plan.columns.map((c) => sql`${c.channelId}::int`),
    sql`, `,
  );
  const end = plan.end.toISOString();
  const line = sql.join(
    [
      sql`to_char(time at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`,
      ...plan.columns.map((c) => cellSql(c, plan.scale)),
    ],
    sql` || ',' || `,
  );
  const [chunk] = await rows<Chunk>(
    db,
    sql`with nth as (
          select (select max(s.time) from (
                    select time from samples
                    where channel_id = c.id and time > ${after}::timestamptz and time <= ${end}::timestamptz
                    order by time limit ${limit}
                  ) s having count(*) = ${limit}) as t
          from unnest(array[${ids}]) as c(id)
        ), bound as (
          select coalesce(min(t), ${end}::timestamptz) as upto, min(t) is null as last from nth
        ), lines as (
          select time, ${line} as line
          from samples
          where channel_id in (${ids})
            and time > ${after}::timestamptz and time <= (select upto from bound)
          group by time
        )
        select (select string_agg(line, E'\r\n' order by time) from lines) as text,
               (select upto::text from bound) as upto,
               (select last from bound) as last`,
  );
  return chunk!;
}

/**
 * The whole file as a byte stream that reads the next chunk only when the reader asks for
 * more (backpressure: a slow client holds at most one chunk in memory). Cancelling (the
 * client went away) stops the reading.
 */
export function csvStream(db: Db, plan: CsvPlan, limit = CHUNK_SAMPLES): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // One millisecond before the start: the first chunk includes a sample at the start itself.
  let after: string | null = null;
  let finished = plan.columns.length === 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      // Each pull enqueues something or closes: a pull that did neither would leave the
      // reader waiting forever.
      async pull(controller) {
        if (after === null) {
          after = new Date(plan.start.getTime() - 1).toISOString();
          // A byte-order mark, so spreadsheet programs read '°C' as UTF-8.
          controller.enqueue(encoder.encode("\uFEFF" + csvHeader(plan)));
          return;
        }
        while (!finished) {
          const chunk = await nextChunk(db, plan, after, limit);
          if (cancelled) return;
          after = chunk.upto;
          finished = chunk.last;
          if (chunk.text) controller.enqueue(encoder.encode(chunk.text + "\r\n"));
          if (chunk.text && !finished) return;
        }
        controller.close();
      },
      cancel() {
        cancelled = true;
        finished = true;
      },
    },
    { highWaterMark: 1 },
  );
}
