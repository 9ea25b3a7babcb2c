import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { FOLD_BATCH, foldBatchFor, foldRollups, PGLITE_FOLD_BATCH } from "../../server/data/rollupFold.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * The fold job beside the pushes (server/data/rollupFold.ts). On PGlite every statement runs in
 * this thread and answers without a turn of the event loop, so a pass of the job would hold the
 * process until it ends; it takes small transactions there and lets the process read between them.
 */
const NOW = TEST_NOW.getTime() / 1000;
const HORIZON = NOW - 2 * 3600;

describe("the fold job's turns", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const stillDue = async () =>
    (
      await rows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from devices where rolled_until <= to_timestamp(${HORIZON})`,
      )
    )[0]!.n;

  it("takes 5 devices a transaction on PGlite and 25 on PostgreSQL", () => {
    expect([PGLITE_FOLD_BATCH, FOLD_BATCH]).toEqual([5, 25]);
    expect([foldBatchFor("pglite"), foldBatchFor("postgres")]).toEqual([5, 25]);
  });

  it.runIf(!process.env["TEST_DATABASE_URL"])(
    "lets the process read what arrived after its first transaction, before its second",
    async () => {
      await db().execute(sql`update devices set rolled_until = to_timestamp(${HORIZON})`);
      const due = await stillDue();
      expect(due).toBeGreaterThan(2);
      // Queued before the pass starts: it runs at the pass's first turn of the event loop.
      let between: Promise<number> | undefined;
      setImmediate(() => (between = stillDue()));
      expect(await foldRollups(db(), new Date((NOW + 86_400) * 1000), () => false, 1)).toBe(due);
      expect(await between).toBe(due - 1);
      expect(await stillDue()).toBe(0);
    },
  );
});
