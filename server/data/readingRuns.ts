import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";

/*
 * Raw readings of a few channels in a time window, as binary, for the exports that walk a
 * year of minutes (the report CSV, the PDF's figures and data hash). Each channel's readings
 * come back on their own, in time order, straight from the (channel_id, time) key: no pivot,
 * no sort, and no number or time ever turned into text by the database and parsed back.
 * PGlite writes them with COPY ... TO '/dev/blob' (binary); PostgreSQL (node-postgres, which
 * has no COPY) packs them into one bytea per channel. Profiled on a year of 4 channels, this
 * read costs about half of the JSON pivot it replaced.
 */

/** One channel's readings in a window: times as epoch microseconds (exact), values as stored. */
export interface ReadingRun {
  micros: Float64Array;
  values: Float64Array;
  length: number;
}

/** Reads each channel's readings in (after, upto] (epoch seconds), oldest first, at most `limit` each. */
export type RunReader = (
  ids: readonly number[],
  after: number,
  upto: number,
  limit: number,
) => Promise<ReadingRun[]>;

type PgliteClient = {
  listen: unknown;
  query(text: string): Promise<{ blob?: Blob }>;
};

/** Epoch seconds of a reading's time, rounded as `extract(epoch from time)::bigint` rounds. */
export const secondsOfMicros = (micros: number) => Math.round(micros / 1e6);

/** Microseconds from 1970 to 2000, PostgreSQL's own epoch for binary times. */
const POSTGRES_EPOCH_MICROS = 946_684_800_000_000;

/** A number written into SQL text: the caller's numbers only, never a person's text. */
function literal(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  return String(n);
}

const windowOf = (id: number, after: number, upto: number) =>
  `channel_id = ${literal(Math.trunc(id))} and time > to_timestamp(${literal(after)}) and time <= to_timestamp(${literal(upto)})`;

/** A time in PostgreSQL's binary form (int8 microseconds from 2000) at `at`, as epoch microseconds. */
const microsAt = (view: DataView, at: number) =>
  view.getInt32(at) * 4_294_967_296 + view.getUint32(at + 4) + POSTGRES_EPOCH_MICROS;

/** Records of 16 bytes: the bytea the PostgreSQL query packs (timestamptz_send || float8send). */
export function decodePacked(bytes: Uint8Array): ReadingRun {
  const length = Math.floor(bytes.byteLength / 16);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const micros = new Float64Array(length);
  const values = new Float64Array(length);
  for (let i = 0, at = 0; i < length; i++, at += 16) {
    micros[i] = microsAt(view, at);
    values[i] = view.getFloat64(at + 8);
  }
  return { micros, values, length };
}

/** PostgreSQL's binary COPY of (time, value) rows: a header, then per row 2 fields of 8 bytes, then -1. */
export function decodeCopy(bytes: Uint8Array): ReadingRun {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string) => new Error(`unexpected binary COPY data: ${why}`);
  if (bytes.byteLength < 21) throw fail("too short");
  let at = 19 + view.getInt32(15);
  const length = Math.floor((bytes.byteLength - at) / 26);
  const micros = new Float64Array(length);
  const values = new Float64Array(length);
  for (let i = 0; i < length; i++, at += 26) {
    if (view.getInt16(at) !== 2 || view.getInt32(at + 2) !== 8 || view.getInt32(at + 14) !== 8)
      throw fail(`row ${i}`);
    micros[i] = microsAt(view, at + 6);
    values[i] = view.getFloat64(at + 18);
  }
  if (view.getInt16(at) !== -1) throw fail("no trailer");
  return { micros, values, length };
}

/** PGlite: one binary COPY per channel into its in-memory /dev/blob. */
function pgliteReader(client: PgliteClient): RunReader {
  return async (ids, after, upto, limit) => {
    const runs: ReadingRun[] = [];
    for (const id of ids) {
      const result = await client.query(
        `copy (select time, value from samples where ${windowOf(id, after, upto)}
               order by time limit ${literal(Math.trunc(limit))}) to '/dev/blob' with (format binary)`,
      );
      if (!result.blob) throw new Error("PGlite returned no blob for COPY TO '/dev/blob'");
      runs.push(decodeCopy(new Uint8Array(await result.blob.arrayBuffer())));
    }
    return runs;
  };
}

/** PostgreSQL (or a transaction on either driver): one query, a bytea of packed readings per channel. */
function sqlReader(db: Db): RunReader {
  return async (ids, after, upto, limit) => {
    const channels = ids.map((id, i) => `(${literal(Math.trunc(id))}, ${i})`).join(", ");
    const found = await rows<{ n: number; b: Uint8Array | null }>(
      db,
      sql.raw(`select c.n, r.b from (values ${channels}) as c(id, n)
               cross join lateral (
                 select string_agg(timestamptz_send(s.time) || float8send(s.value), ''::bytea order by s.time) as b
                 from (select time, value from samples where channel_id = c.id
                         and time > to_timestamp(${literal(after)}) and time <= to_timestamp(${literal(upto)})
                       order by time limit ${literal(Math.trunc(limit))}) s
               ) r order by c.n`),
    );
    return ids.map((_, i) => decodePacked(found.find((f) => Number(f.n) === i)?.b ?? new Uint8Array(0)));
  };
}

/**
 * The fastest reader the database offers, and whether it works apart from this thread (a
 * PostgreSQL pool, where reading the next window while Node formats this one saves time; PGlite
 * runs in this thread, and a transaction has one connection, so there it would only add work).
 */
export function runReader(db: Db): { read: RunReader; apart: boolean } {
  const client = (db as unknown as { $client?: Partial<PgliteClient> & { options?: unknown } }).$client;
  if (client && "listen" in client && typeof client.query === "function")
    return { read: pgliteReader(client as PgliteClient), apart: false };
  return { read: sqlReader(db), apart: Boolean(client && "options" in client) };
}
