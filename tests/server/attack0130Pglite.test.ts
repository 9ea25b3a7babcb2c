import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inTransaction, openDatabase, rows, type Db } from "../../server/db/client.ts";
import { runReader } from "../../server/data/readingRuns.ts";
import { openTestDatabase, TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Attacks on the changes of 2026-11-30: drizzle's parsers preset on PGlite behind a Proxy
 * (db/pgliteParsers.ts), the push lookup's `= any(array(...))`, the fold job's small
 * transactions and turns, group commit's next batch after setImmediate, and the 503 of a lane
 * that is behind (data/ingest.ts). Each test asserts what should hold; a failing one is a finding.
 */

const PG = Boolean(process.env["TEST_DATABASE_URL"]);
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clientOf = (db: Db) => (db as unknown as { $client: PGlite }).$client;

// ------------------------------------------------------------------ the parsers' Proxy

describe("attack 0130: PGlite behind the parsers' Proxy", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("reads arrays of dates, times, intervals and numerics as PostgreSQL's text, as drizzle (and node-postgres on PostgreSQL) does", async () => {
    // drizzle-orm keeps numeric[], timestamp[], timestamptz[], interval[] and date[] as text on
    // both drivers; before the preset every raw query on PGlite did too.
    const q = sql`select array[timestamptz '2026-01-02 03:04:05+00'] as ta, array[1.5::numeric] as na,
      array[date '2026-01-02'] as da, array[interval '1 day'] as ia, array[timestamp '2026-01-02 03:04:05'] as tsa`;
    const expected = {
      ta: '{"2026-01-02 03:04:05+00"}',
      na: "{1.5}",
      da: "{2026-01-02}",
      ia: '{"1 day"}',
      tsa: '{"2026-01-02 03:04:05"}',
    };
    expect(await rows(db(), q)).toEqual([expected]);
    expect(await db().transaction((tx) => rows(tx, q))).toEqual([expected]);
  });

  it("still reads a drizzle timestamptz[] column (rate_limits.events) as Dates", async () => {
    const { rateLimits } = await import("../../server/db/schema/index.ts");
    await db().execute(sql`insert into rate_limits (key, events)
      values ('attack0130', array[timestamptz '2026-01-02 03:04:05+00', timestamptz '2026-01-03 00:00:00+00'])`);
    const [row] = await db()
      .select()
      .from(rateLimits)
      .where(sql`key = 'attack0130'`);
    expect(row!.events.map((d) => d.toISOString())).toEqual([
      "2026-01-02T03:04:05.000Z",
      "2026-01-03T00:00:00.000Z",
    ]);
  });

  it.runIf(!PG)(
    "is still a PGlite to instanceof, and listen, exec and the client's own query work through it",
    async () => {
      const client = clientOf(db());
      expect(client instanceof PGlite).toBe(true);
      const heard: string[] = [];
      const unlisten = await client.listen("attack0130", (p) => heard.push(p));
      await db().execute(sql`select pg_notify('attack0130', 'hello')`);
      await sleep(20);
      await unlisten();
      expect(heard).toEqual(["hello"]);
      const exec = await client.exec("select 1 as a; select timestamptz '2026-01-02 03:04:05+00' as t");
      expect(exec.map((r) => r.rows[0])).toEqual([{ a: 1 }, { t: "2026-01-02 03:04:05+00" }]);
      // A caller's parsers for other types are honoured.
      const own = await client.query<{ s: string }>("select 'x'::text as s", [], {
        parsers: { 25: () => "parsed" },
      });
      expect(own.rows).toEqual([{ s: "parsed" }]);
      // Documented: a caller's own parser for one of the nine type ids is taken to be drizzle's
      // and left out (no caller in server/ or scripts/ passes one).
      const dropped = await client.query<{ t: unknown }>(
        "select timestamptz '2026-01-02 03:04:05+00' as t",
        [],
        {
          parsers: { 1184: (v: string) => new Date(v) },
        },
      );
      expect(dropped.rows[0]!.t).toBe("2026-01-02 03:04:05+00");
    },
  );

  it.runIf(!PG)(
    "nests drizzle savepoints in a transaction through it: an inner failure rolls back only itself",
    async () => {
      const keys = async () =>
        (
          await rows<{ key: string }>(
            db(),
            sql`select key from rate_limits where key like 'a0130-%' order by key`,
          )
        ).map((r) => r.key);
      await db().transaction(async (tx) => {
        await tx.execute(sql`insert into rate_limits (key) values ('a0130-outer')`);
        await expect(
          tx.transaction(async (inner) => {
            await inner.execute(sql`insert into rate_limits (key) values ('a0130-inner')`);
            await inner.transaction(async (deepest) => {
              await deepest.execute(sql`insert into rate_limits (key) values ('a0130-deepest')`);
            });
            throw new Error("inner fails");
          }),
        ).rejects.toThrow("inner fails");
        await inTransaction(driverless(tx), async (again) => {
          await again.execute(sql`insert into rate_limits (key) values ('a0130-again')`);
        });
      });
      expect(await keys()).toEqual(["a0130-again", "a0130-outer"]);
      await expect(
        db().transaction(async (tx) => {
          await tx.execute(sql`insert into rate_limits (key) values ('a0130-rolled')`);
          await tx.execute(sql`select 1/0`);
        }),
      ).rejects.toThrow();
      expect(await keys()).toEqual(["a0130-again", "a0130-outer"]);
    },
  );

  it("reads packed readings the same with the client's COPY and with a query in a transaction", async () => {
    const id = (await rows<{ id: number }>(db(), sql`select min(id) as id from channels`))[0]!.id;
    await db().execute(sql`insert into samples (channel_id, time, value)
      select ${id}, to_timestamp(${NOW_S} - g * 61), g * 1.25 from generate_series(1, 50) g
      on conflict do nothing`);
    const outside = await runReader(db()).read([id], NOW_S - 30 * 86_400, NOW_S + 60, 10_000);
    const inside = await db().transaction((tx) =>
      runReader(driverless(tx)).read([id], NOW_S - 30 * 86_400, NOW_S + 60, 10_000),
    );
    expect(outside[0]!.length).toBeGreaterThan(0);
    expect([...outside[0]!.micros]).toEqual([...inside[0]!.micros]);
    expect([...outside[0]!.values]).toEqual([...inside[0]!.values]);
  });
});

const driverless = (tx: unknown) => tx as Db;

describe.runIf(!PG)("attack 0130: PGlite dumps, loads, data directories and close through the Proxy", () => {
  it("dumps its data directory, loads it again, opens a data directory, and closes through $client", async () => {
    const first = await openTestDatabase();
    try {
      await first.db.execute(
        sql`insert into rate_limits (key, events) values ('dumped', array[timestamptz '2026-01-02 03:04:05+00'])`,
      );
      const dump = await clientOf(first.db).dumpDataDir("none");
      const loaded = await openDatabase({ template: dump });
      try {
        expect(
          await rows(
            loaded.db,
            sql`select key, events[1] as at, now() - now() as i from rate_limits where key = 'dumped'`,
          ),
        ).toEqual([{ key: "dumped", at: "2026-01-02 03:04:05+00", i: "00:00:00" }]);
      } finally {
        await loaded.close();
      }
      await clientOf(first.db).close();
      expect(clientOf(first.db).closed).toBe(true);
    } finally {
      await first.drop().catch(() => {});
    }
    const dir = await mkdtemp(join(tmpdir(), "attack0130-"));
    try {
      const onDisk = await openDatabase({ dataDir: dir });
      expect(
        await rows(onDisk.db, sql`select timestamptz '2026-01-02 03:04:05+00' as t, date '2026-01-02' as d`),
      ).toEqual([{ t: "2026-01-02 03:04:05+00", d: "2026-01-02" }]);
      await onDisk.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
