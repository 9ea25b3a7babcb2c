import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";

/*
 * Raw readings of a few channels in a time window, as binary, for the exports that walk a
 * year of minutes (the report CSV, the PDF's figures and data hash). Each channel's readings
 * come back on their own, in time order, straight from the (channel_id, time) key, packed
 * into one bytea per channel: no pivot, no sort, and no number or time turned into text by
 * the database and parsed back. PGlite hands the bytea over through COPY ... TO '/dev/blob'
 * (binary); PostgreSQL (node-postgres, which has no COPY) as a query result. Profiled on a
 * year of 4 channels, this read costs less than half of the JSON pivot it replaced.
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

/**
 * One query for a window: a row per channel (its place in `ids`, then its readings packed as
 * 16-byte records of timestamptz_send || float8send), read from the (channel_id, time) key.
 */
function packedSql(ids: readonly number[], after: number, upto: number, limit: number): string {
  const channels = ids.map((id, i) => `(${literal(Math.trunc(id))}, ${i})`).join(", ");
  return `select c.n, r.b from (values ${channels}) as c(id, n)
          cross join lateral (
            select string_agg(timestamptz_send(s.time) || float8send(s.value), ''::bytea order by s.time) as b
            from (select time, value from samples where channel_id = c.id
                    and time > to_timestamp(${literal(after)}) and time <= to_timestamp(${literal(upto)})
                  order by time limit ${literal(Math.trunc(limit))}) s
          ) r order by c.n`;
}

/** The runs of `count` channels from their packed bytes by place (missing: no readings). */
function runsOf(count: number, packed: Map<number, Uint8Array>): ReadingRun[] {
  return Array.from({ length: count }, (_, i) => decodePacked(packed.get(i) ?? new Uint8Array(0)));
}

/**
 * PostgreSQL's binary COPY of the packed query's rows (int4 place, bytea or NULL): the
 * signature, flags and extension, then per row its field count and each field's length and
 * bytes, then -1.
 */
export function decodeCopy(bytes: Uint8Array): Map<number, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string) => new Error(`unexpected binary COPY data: ${why}`);
  if (bytes.byteLength < 21) throw fail("too short");
  const packed = new Map<number, Uint8Array>();
  let at = 19 + view.getInt32(15);
  while (view.getInt16(at) !== -1) {
    if (view.getInt16(at) !== 2 || view.getInt32(at + 2) !== 4) throw fail(`row at ${at}`);
    const place = view.getInt32(at + 6);
    const size = view.getInt32(at + 10);
    at += 14;
    if (size > 0) packed.set(place, bytes.subarray(at, at + size));
    at += Math.max(0, size);
  }
  return packed;
}

/**
 * PGlite: the packed query through COPY ... TO '/dev/blob' in binary, where the bytea arrives
 * as it is (a query's result would carry it as hex text to parse). One write per channel:
 * a COPY of the readings themselves writes row by row, each a call out of the wasm.
 */
function pgliteReader(client: PgliteClient): RunReader {
  return async (ids, after, upto, limit) => {
    const result = await client.query(
      `copy (${packedSql(ids, after, upto, limit)}) to '/dev/blob' with (format binary)`,
    );
    if (!result.blob) throw new Error("PGlite returned no blob for COPY TO '/dev/blob'");
    return runsOf(ids.length, decodeCopy(new Uint8Array(await result.blob.arrayBuffer())));
  };
}

/** PostgreSQL (or a transaction on either driver): the packed query, its bytea as the driver parses it. */
function sqlReader(db: Db): RunReader {
  return async (ids, after, upto, limit) => {
    const found = await rows<{ n: number; b: Uint8Array | null }>(
      db,
      sql.raw(packedSql(ids, after, upto, limit)),
    );
    return runsOf(ids.length, new Map(found.flatMap((f) => (f.b ? [[Number(f.n), f.b] as const] : []))));
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
