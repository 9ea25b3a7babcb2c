import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows, type Db } from "../../server/db/client.ts";
import { tableSums } from "../../scripts/dbBackup.ts";
import { useTestApp } from "./helpers.ts";

// The seeded tests' starting point: the first test of a file gets the seed (on PGlite loaded
// from the dump globalSetup made, on PostgreSQL seeded there), the next ones a copy of it back
// (tests/server/helpers.ts). A copy must be the seed, row for row and sequence for sequence.

const sequences = (db: Db) =>
  rows<{ name: string; value: string | null }>(
    db,
    sql`select sequencename as name, last_value as value from pg_sequences
        where schemaname = 'public' order by 1`,
  );

describe("a seeded test's database", () => {
  const ctx = useTestApp({ seeded: true });
  let seeded: Awaited<ReturnType<typeof tableSums>>;
  let seededSequences: Awaited<ReturnType<typeof sequences>>;

  it("is the demo seed in the first test, which then changes it", async () => {
    const { db } = ctx.database;
    seeded = await tableSums(db);
    seededSequences = await sequences(db);
    expect(seeded.find((t) => t.table === "public.users")?.rows).toBeGreaterThan(0);
    await db.execute(sql`delete from user_assignments`);
    await db.execute(sql`update devices set name = 'Changed'`);
    await db.execute(sql`insert into tags (subscription_id, name)
      select id, 'Extra' from subscriptions limit 1`);
    // A sequence no column owns, which seeding never used (a guest payment's order number).
    await db.execute(sql`select nextval('orders_id_seq')`);
  });

  it("is the same seed again in the next test: every row, and every id the next insert gets", async () => {
    const { db } = ctx.database;
    expect(await tableSums(db)).toEqual(seeded);
    expect(await sequences(db)).toEqual(seededSequences);
  });
});
