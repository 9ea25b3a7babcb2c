import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { ingestPush, type ReadingsHook } from "../../server/data/ingest.ts";
import { SOLO_REPEATED_BUCKETS } from "../../server/data/ingestWeight.ts";
import { addLoadDevices, loadChannelKey, loadKey, loadMac } from "../../scripts/load/fixtures.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Attack review of 2026-11-29, finding 1: one key re-sending 2,000 readings it already sent
 * over the last week made its batch recompute thousands of rollup buckets, and every other
 * device's push in that batch (and behind it) waited seconds. Such a push is now stored in a
 * transaction of its own and its key pays for the recomputation.
 */

const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
/** A long linger: every push sent at once would share one batch. */
const BATCH = { maxBatch: 50, lingerMs: 400, maxRunning: 1 };

/** 2,000 readings of two channels, ten minutes apart over the last week: 2,000 finest buckets. */
const weekOf = (i: number, value: number) => ({
  macAddress: loadMac(i),
  readings: Array.from({ length: 1000 }, (_, k) => NOW_S - 600 - k * 599).flatMap((time) => [
    { channelKey: loadChannelKey(i, 0), value, time },
    { channelKey: loadChannelKey(i, 1), value, time },
  ]),
});
const oneReading = (i: number, value: number) => ({
  macAddress: loadMac(i),
  readings: [{ channelKey: loadChannelKey(i, 0), value, time: NOW_S - 30 }],
});

describe("a push re-sending a week of readings", () => {
  const ctx = useTestApp({ seeded: true });
  beforeEach(() => addLoadDevices(ctx.database.db, 4, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) }));

  const push = (body: unknown, i = 0, forwarded = `10.0.0.${i + 1}`) =>
    ctx.app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Device ${loadKey(i)}`,
        "x-forwarded-for": forwarded,
      },
      body: JSON.stringify(body),
    });

  it("is stored in a transaction of its own while other devices' pushes share theirs", async () => {
    const db = ctx.database.db;
    const first = await ingestPush(db, loadKey(0), weekOf(0, 1), TEST_NOW, { batch: BATCH });
    expect(first.recomputed).toBe(0);
    // Which devices each transaction stored, as the alert hook sees them.
    const batches: number[][] = [];
    const hook: ReadingsHook = async (_, batch) => {
      batches.push(batch.map((b) => b.device.id));
      return batch.map(() => 0);
    };
    const [heavy, ...light] = await Promise.all([
      ingestPush(db, loadKey(0), weekOf(0, 2), TEST_NOW, { batch: BATCH }, hook),
      ...[1, 2, 3].map((i) => ingestPush(db, loadKey(i), oneReading(i, i), TEST_NOW, { batch: BATCH }, hook)),
    ]);
    expect(heavy!.recomputed).toBe(2000);
    expect(light.map((l) => l.recomputed)).toEqual([0, 0, 0]);
    const [idOf0] = await rows<{ id: number }>(
      db,
      sql`select id from devices where mac_address = ${loadMac(0)}`,
    );
    // The heavy push had a transaction to itself, the light ones batches without it (how many of
    // them a batch gathered depends on when each arrived, which a busy machine moves).
    expect(batches.filter((b) => b.includes(idOf0!.id))).toEqual([[idOf0!.id]]);
    expect(batches.flat().sort()).toHaveLength(4);
    // The repeats overwrote every reading of the week.
    const [stored] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from samples s join channels c on c.id = s.channel_id
        where c.channel_key like ${`${loadMac(0)}_%`} and s.value = 2`,
    );
    expect(stored!.n).toBe(2000);
  });

  it("stays in the shared batch when it repeats a few buckets only", async () => {
    const db = ctx.database.db;
    const few = { ...weekOf(1, 1), readings: weekOf(1, 1).readings.slice(0, SOLO_REPEATED_BUCKETS) };
    await ingestPush(db, loadKey(1), few, TEST_NOW, { batch: BATCH });
    const batches: number[][] = [];
    const hook: ReadingsHook = async (_, batch) => {
      batches.push(batch.map((b) => b.device.id));
      return batch.map(() => 0);
    };
    const [again] = await Promise.all([
      ingestPush(
        db,
        loadKey(1),
        { ...few, readings: few.readings.map((r) => ({ ...r, value: 2 })) },
        TEST_NOW,
        { batch: BATCH },
        hook,
      ),
      ingestPush(db, loadKey(2), oneReading(2, 5), TEST_NOW, { batch: BATCH }, hook),
    ]);
    expect(again!.recomputed).toBe(SOLO_REPEATED_BUCKETS);
    expect(batches.map((b) => b.length)).toEqual([2]);
  });

  it("charges its key for the recomputation: the key's next push waits", async () => {
    expect((await push(weekOf(0, 1))).status).toBe(200);
    expect((await push(oneReading(0, 1))).status).toBe(200);
    expect((await push(weekOf(0, 2))).status).toBe(200);
    const next = await push(oneReading(0, 3));
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after"))).toBeGreaterThan(5);
    // Another device is not charged for it.
    expect((await push(oneReading(1, 3), 1)).status).toBe(200);
  });
});
