import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  inTransaction,
  postgresPool,
  rows,
  statementWithCommit,
  withCommit,
  type Database,
} from "../../server/db/client.ts";
import { literal } from "../../server/db/literal.ts";
import { watchingWrites } from "../../server/db/requestWrites.ts";
import { openTestDatabase } from "./helpers.ts";

// The transaction door (server/db/ownTransaction.ts): on PostgreSQL a statement queued with
// withCommit rides in COMMIT's message; on PGlite it runs at once. Either way it commits with
// the transaction or not at all.
describe("statements sent with a transaction's COMMIT", () => {
  let database: Database & { drop(): Promise<void> };
  const db = () => database.db;
  beforeAll(async () => {
    database = await openTestDatabase();
    await db().execute(
      sql`create table tail_test (id int primary key, note text, doc jsonb, at timestamptz)`,
    );
  });
  afterAll(() => database.drop());

  const ids = async () =>
    (await rows<{ id: number }>(db(), sql`select id from tail_test order by id`)).map((r) => r.id);

  it("writes the queued row together with the change", async () => {
    await inTransaction(db(), async (tx) => {
      await tx.execute(sql`insert into tail_test (id) values (1)`);
      await withCommit(tx, "tail_test", { id: 2, note: "with the commit" });
      // On PostgreSQL it waits for COMMIT's message; PGlite, in process, writes it at once.
      const seen = await rows(tx, sql`select 1 from tail_test where id = 2`);
      expect(seen.length).toBe(database.kind === "postgres" ? 0 : 1);
    });
    expect(await ids()).toEqual([1, 2]);
  });

  it("writes neither when the change fails after queuing its row", async () => {
    await expect(
      inTransaction(db(), async (tx) => {
        await withCommit(tx, "tail_test", { id: 3 });
        await tx.execute(sql`insert into tail_test (id) values (1)`);
      }),
    ).rejects.toThrow();
    expect(await ids()).toEqual([1, 2]);
  });

  it("undoes the change when the queued row itself fails", async () => {
    await expect(
      inTransaction(db(), async (tx) => {
        await tx.execute(sql`insert into tail_test (id) values (4)`);
        await withCommit(tx, "tail_test", { id: 1 });
      }),
    ).rejects.toThrow();
    expect(await ids()).toEqual([1, 2]);
    // The connection went back to the pool usable: the next transaction commits.
    await inTransaction(db(), (tx) => withCommit(tx, "tail_test", { id: 5 }));
    expect(await ids()).toEqual([1, 2, 5]);
  });

  it("drops what a rolled-back savepoint queued and keeps the rest", async () => {
    await inTransaction(db(), async (tx) => {
      await withCommit(tx, "tail_test", { id: 6 });
      await inTransaction(tx, async (inner) => {
        await withCommit(inner, "tail_test", { id: 7 });
        throw new Error("the inner change gives up");
      }).catch(() => undefined);
      await inTransaction(tx, (inner) => withCommit(inner, "tail_test", { id: 8 }));
    });
    expect(await ids()).toEqual([1, 2, 5, 6, 8]);
  });

  it("keeps awkward text, json and times exactly as given", async () => {
    const awkward = [
      "O'Brien's \"freezer\"",
      "back\\slash \\' and E'\\x41'",
      "'); drop table tail_test; --",
      "ünïcödé ❄️ 𝔉 line\nbreak\ttab",
      "$$ dollar $tag$ quotes $$",
    ];
    const at = new Date("2026-11-29T01:02:03.456Z");
    await inTransaction(db(), async (tx) => {
      for (const [i, note] of awkward.entries())
        await withCommit(tx, "tail_test", { id: 100 + i, note, doc: { note, n: i, nested: [note] }, at });
    });
    const back = await rows<{ note: string; doc: unknown; at: Date | string }>(
      db(),
      sql`select note, doc, at from tail_test where id >= 100 order by id`,
    );
    expect(back.map((r) => r.note)).toEqual(awkward);
    expect(back.map((r) => r.doc)).toEqual(awkward.map((note, n) => ({ note, n, nested: [note] })));
    expect(back.every((r) => new Date(r.at).getTime() === at.getTime())).toBe(true);
  });

  it("counts a queued row as the request's write, as a statement Drizzle sends would count", async () => {
    const watched = watchingWrites(() =>
      inTransaction(db(), (tx) => withCommit(tx, "tail_test", { id: 200 })),
    );
    await watched.result;
    expect(watched.wrote()).toBe(true);
  });

  it.runIf(process.env["TEST_DATABASE_URL"])(
    "fails a transaction whose caught error made PostgreSQL roll it back, instead of reporting it committed",
    async () => {
      await expect(
        inTransaction(db(), async (tx) => {
          await tx.execute(sql`insert into tail_test (id) values (300)`);
          await tx.execute(sql`select 1 / 0`).catch(() => undefined);
          return "committed?";
        }),
      ).rejects.toThrow("rolled back");
      expect(await ids()).not.toContain(300);
    },
  );

  it.runIf(process.env["TEST_DATABASE_URL"])(
    "refuses a row queued on a transaction that has already ended, rather than dropping it",
    async () => {
      let leaked: Parameters<Parameters<typeof inTransaction>[1]>[0] | undefined;
      await inTransaction(db(), async (tx) => {
        leaked = tx;
      });
      await expect(withCommit(leaked!, "tail_test", { id: 301 })).rejects.toThrow("has ended");
    },
  );

  it.runIf(process.env["TEST_DATABASE_URL"])(
    "speaks UTF-8 without JIT on every pooled connection, even where the database says otherwise, before any query",
    async () => {
      const [row] = await rows<{ name: string }>(db(), sql`select current_database() as name`);
      const name = row!.name;
      await db().execute(sql.raw(`alter database "${name}" set client_encoding = 'LATIN1'`));
      await db().execute(sql.raw(`alter database "${name}" set jit = on`));
      const url = new URL(process.env["TEST_DATABASE_URL"]!);
      url.pathname = `/${name}`;
      const pool = await postgresPool(url.toString(), { max: 2 });
      try {
        // Two at once on fresh connections: each is set before its first query runs.
        const seen = await Promise.all(
          [1, 2].map(async () => {
            const { rows: found } = await pool.query(
              "select current_setting('client_encoding') as e, current_setting('jit') as j",
            );
            return `${found[0].e} ${found[0].j}`;
          }),
        );
        expect(seen).toEqual(["UTF8 off", "UTF8 off"]);
      } finally {
        await pool.end();
        await db().execute(sql.raw(`alter database "${name}" reset client_encoding`));
        await db().execute(sql.raw(`alter database "${name}" reset jit`));
      }
    },
  );

  it("starts a transaction with its lock timeout, and leaves the connection's own as it was", async () => {
    const setting = (d: Parameters<typeof rows>[0]) =>
      rows<{ t: string }>(d, sql`select current_setting('lock_timeout') as t`);
    const inside = await inTransaction(db(), (tx) => setting(tx), { lockTimeoutMs: 250 });
    expect(inside[0]!.t).toBe("250ms");
    expect((await setting(db()))[0]!.t).toBe("0");
    await expect(inTransaction(db(), async () => 1, { lockTimeoutMs: -1 })).rejects.toThrow(RangeError);
  });

  it("runs a statement queued with the COMMIT as part of the transaction", async () => {
    await inTransaction(db(), async (tx) => {
      await statementWithCommit(tx, "update tail_test set note = 'tail' where id = 5");
      const seen = await rows<{ note: string | null }>(tx, sql`select note from tail_test where id = 5`);
      expect(seen[0]!.note).toBe(database.kind === "postgres" ? null : "tail");
    });
    expect((await rows<{ note: string }>(db(), sql`select note from tail_test where id = 5`))[0]!.note).toBe(
      "tail",
    );
  });

  it("refuses to write a number that is not finite as text", () => {
    expect(() => literal(Number.NaN)).toThrow(RangeError);
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(literal(-2.5)).toBe("-2.5");
    expect(literal(null)).toBe("NULL");
  });
});
