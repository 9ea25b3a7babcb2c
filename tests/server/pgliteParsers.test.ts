import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, rows } from "../../server/db/client.ts";
import { DRIZZLE_PARSERS, presetParsersClient, withoutPresetParsers } from "../../server/db/pgliteParsers.ts";

/*
 * PGlite holds drizzle's value parsers from its start (server/db/pgliteParsers.ts), and the
 * client drizzle sees leaves drizzle's per-query copy out: merging it cost 0.24 ms a query.
 */
const DRIZZLES = { 1114: (v: string) => v, 1184: (v: string) => v, 1082: (v: string) => v };

describe("drizzle's parsers given to PGlite once", () => {
  it("leaves drizzle's parsers out of a query's options and keeps the rest", () => {
    expect(withoutPresetParsers({ rowMode: "array", parsers: DRIZZLES })).toEqual({ rowMode: "array" });
    const own = { rowMode: "object", parsers: { 1184: () => 1, 25: () => 2 } };
    expect(withoutPresetParsers(own)).toBe(own);
    expect(withoutPresetParsers(undefined)).toBeUndefined();
    expect(
      Object.keys(DRIZZLE_PARSERS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([1082, 1114, 1115, 1182, 1184, 1185, 1186, 1187, 1231]);
  });

  it("passes queries on the client and in its transactions without drizzle's parsers", async () => {
    const seen: unknown[] = [];
    const tx = { query: async (_q: string, _p: unknown, o: unknown) => seen.push(o) };
    const client = presetParsersClient({
      query: async (_q: string, _p: unknown, o: unknown) => seen.push(o),
      transaction: async (work: (t: typeof tx) => Promise<unknown>) => work(tx),
      name: "client",
    });
    await client.query("select 1", [], { rowMode: "array", parsers: DRIZZLES });
    await client.transaction(async (t) => t.query("select 2", [], { rowMode: "object", parsers: DRIZZLES }));
    expect(seen).toEqual([{ rowMode: "array" }, { rowMode: "object" }]);
    expect(client.name).toBe("client");
  });

  it("reads dates, times and intervals as text through drizzle, as drizzle-orm/pglite does, in and out of a transaction", async () => {
    const database = await openDatabase({});
    try {
      const q = sql`select timestamptz '2026-01-02 03:04:05+00' as t, date '2026-01-02' as d,
        interval '1 day' as i, 1.5::numeric as n, array[1, 2] as a, '{"a":1}'::json as j,
        array[timestamptz '2026-01-02 03:04:05+00'] as ts, array[date '2026-01-02'] as ds, array[1.5::numeric] as ns`;
      // Arrays of drizzle's types too, as PostgreSQL's text (PGlite makes array parsers as it starts).
      const expected = {
        t: "2026-01-02 03:04:05+00",
        d: "2026-01-02",
        i: "1 day",
        n: "1.5",
        a: [1, 2],
        j: { a: 1 },
        ts: '{"2026-01-02 03:04:05+00"}',
        ds: "{2026-01-02}",
        ns: "{1.5}",
      };
      expect(await rows(database.db, q)).toEqual([expected]);
      expect(await database.db.transaction((tx) => rows(tx, q))).toEqual([expected]);
    } finally {
      await database.close();
    }
  });
});
