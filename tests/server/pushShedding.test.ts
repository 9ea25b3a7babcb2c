import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { BEHIND_AFTER_MS, ingestPush, PUSHES_BEHIND } from "../../server/data/ingest.ts";
import { addLoadDevices, loadChannelKey, loadKey, loadMac } from "../../scripts/load/fixtures.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * A process far behind its pushes refuses new ones at once (server/data/ingest.ts): past its
 * ceiling PGlite's process had stopped accepting connections, and pushes timed out unanswered.
 */
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** A lane whose batches wait 400 ms for company: its first push is "behind" after 100 ms. */
const LANE = { batch: { maxBatch: 50, lingerMs: 400, maxRunning: 1 }, behindAfterMs: 100 };
const oneReading = (i: number, value: number) => ({
  macAddress: loadMac(i),
  readings: [{ channelKey: loadChannelKey(i, 0), value, time: NOW_S - 30 }],
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("pushes while the batches are behind", () => {
  const ctx = useTestApp({ seeded: true });
  beforeEach(() => addLoadDevices(ctx.database.db, 3, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) }));
  const stored = async (i: number) =>
    (
      await rows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from samples s join channels c on c.id = s.channel_id
          where c.channel_key = ${loadChannelKey(i, 0)} and s.time = to_timestamp(${NOW_S - 30})`,
      )
    )[0]!.n;

  it("refuses a push with 503 while the oldest waiting push has waited past the limit, and takes pushes again once caught up", async () => {
    const db = ctx.database.db;
    const first = ingestPush(db, loadKey(0), oneReading(0, 1), TEST_NOW, LANE);
    await sleep(200);
    await expect(ingestPush(db, loadKey(1), oneReading(1, 2), TEST_NOW, LANE)).rejects.toMatchObject({
      status: 503,
      message: PUSHES_BEHIND,
    });
    expect((await first).accepted).toBe(1);
    expect((await ingestPush(db, loadKey(2), oneReading(2, 3), TEST_NOW, LANE)).accepted).toBe(1);
    expect([await stored(0), await stored(1), await stored(2)]).toEqual([1, 0, 1]);
  });

  it("counts a lane as behind after 15 s by default: more than two lock timeouts, half a push's 30 s limit", () => {
    expect(BEHIND_AFTER_MS).toBe(15_000);
  });
});
