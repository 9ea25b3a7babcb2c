import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { groupCommit, type Outcome } from "../../server/core/groupCommit.ts";
import { rows } from "../../server/db/client.ts";
import { ingestPush, PUSHES_BEHIND } from "../../server/data/ingest.ts";
import { pushDevices } from "../../server/data/ingestLookup.ts";
import { foldRollups, PGLITE_FOLD_BATCH } from "../../server/data/rollupFold.ts";
import { addLoadDevices, loadChannelKey, loadKey, loadMac } from "../../scripts/load/fixtures.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Attacks on the changes of 2026-11-30: drizzle's parsers preset on PGlite behind a Proxy
 * (db/pgliteParsers.ts), the push lookup's `= any(array(...))`, the fold job's small
 * transactions and turns, group commit's next batch after setImmediate, and the 503 of a lane
 * that is behind (data/ingest.ts). Each test asserts what should hold; a failing one is a finding.
 */

const PG = Boolean(process.env["TEST_DATABASE_URL"]);
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ the push lookup

describe("attack 0130: the push lookup's = any(array(...))", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const ODD = [`a"b`, `c\\d`, `e'f`, "ü€😀", "x,y", "{z}", "NULL", " sp ", "[1]"];

  beforeEach(async () => {
    await addLoadDevices(db(), 3, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) });
    for (const [i, mac] of ODD.entries())
      await db()
        .execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
        select subscription_id, name, type, device_type, ${mac}, serialnumber || ${`-odd${i}`}, ingest_key_hash
        from devices where mac_address = ${loadMac(0)}`);
  });

  it("answers an empty list, duplicates and MACs with quotes, backslashes, commas, braces and unicode exactly", async () => {
    expect((await pushDevices(db(), [])).size).toBe(0);
    const dup = await pushDevices(db(), [loadMac(1), loadMac(1), loadMac(1)]);
    expect([...dup.keys()]).toEqual([loadMac(1)]);
    expect(dup.get(loadMac(1))!.channels.size).toBe(20);
    const odd = await pushDevices(db(), [
      ...ODD,
      "a",
      "c\\\\d",
      "sp",
      "ü€",
      "null",
      "LD:000001 ",
      "ld:000001",
    ]);
    expect([...odd.keys()].sort()).toEqual([...ODD].sort());
    for (const mac of ODD) expect((await pushDevices(db(), [mac])).has(mac)).toBe(true);
  });

  it("finds 500 MACs among unknown ones in one statement", async () => {
    await db().execute(sql`delete from devices where mac_address like 'LD:%'`);
    await addLoadDevices(db(), 500, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) });
    const wanted = Array.from({ length: 500 }, (_, i) => loadMac(i));
    const unknown = Array.from({ length: 500 }, (_, i) => `NO:${i}`);
    const found = await pushDevices(db(), [...unknown, ...wanted, ...wanted.slice(0, 50)]);
    expect(found.size).toBe(500);
    expect(wanted.every((m) => found.get(m)?.channels.size === 20)).toBe(true);
  }, 60_000);
});

// ------------------------------------------------------------------ group commit

describe("attack 0130: group commit with the next batch after setImmediate", () => {
  it("answers every item exactly once, in order, never runs a batch twice, and ends idle, with failing batches among them", async () => {
    const maxRunning = 2;
    const runs: { items: number[]; fresh: boolean; threw: boolean }[] = [];
    const seen = new Set<number>();
    let overRunning = 0;
    let rand = 7;
    const random = () => (rand = (rand * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const batches: ReturnType<typeof groupCommit<number, number>> = groupCommit<number, number>(
      { maxBatch: 4, lingerMs: 1, maxRunning },
      async (items) => {
        if (batches.running > maxRunning) overRunning++;
        const fresh = items.every((i) => !seen.has(i));
        items.forEach((i) => seen.add(i));
        const run = { items, fresh, threw: false };
        runs.push(run);
        const r = random();
        if (r < 0.3) await sleep(Math.floor(r * 10));
        else if (r < 0.6) await new Promise((res) => setImmediate(res));
        else await Promise.resolve();
        if (items.some((i) => i % 7 === 0)) {
          run.threw = items.length > 1 || random() < 0.5;
          if (run.threw) throw new Error(`broke on ${items.join()}`);
        }
        return items.map((i): Outcome<number> => ({ ok: true, value: i * 10 }));
      },
    );
    const answers: Promise<PromiseSettledResult<number>>[] = [];
    for (let i = 1; i <= 300; i++) {
      answers.push(
        batches.submit(i).then(
          (value) => ({ status: "fulfilled", value }) as const,
          (reason: unknown) => ({ status: "rejected", reason }) as const,
        ),
      );
      const r = random();
      if (r < 0.2) await sleep(Math.floor(r * 15));
      else if (r < 0.4) await new Promise((res) => setImmediate(res));
    }
    const settled = await Promise.all(answers);
    expect(overRunning).toBe(0);
    expect(batches.running).toBe(0);
    expect(batches.waiting).toBe(0);
    expect(batches.oldestWaitMs).toBe(0);
    settled.forEach((s, k) => {
      const i = k + 1;
      const runsOf = runs.filter((r) => r.items.includes(i));
      const first = runsOf[0]!;
      // In one fresh batch, and once more alone only if that batch failed as a whole.
      expect(first.fresh).toBe(true);
      expect(runsOf.length).toBe(first.threw && first.items.length > 1 ? 2 : 1);
      const last = runsOf.at(-1)!;
      if (last.threw) expect(s.status).toBe("rejected");
      else expect(s).toEqual({ status: "fulfilled", value: i * 10 });
    });
    const order = runs.filter((r) => r.fresh).flatMap((r) => r.items);
    expect(order).toEqual(Array.from({ length: 300 }, (_, k) => k + 1));
  });
});

// ------------------------------------------------------------------ the fold job

describe("attack 0130: fold passes of 5 devices with turns between", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const HORIZON = NOW_S - 2 * 3600;
  const AT = new Date((NOW_S + 86_400) * 1000);
  const stillDue = async () =>
    (
      await rows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from devices where rolled_until <= to_timestamp(${HORIZON})`,
      )
    )[0]!.n;
  beforeEach(async () => {
    await addLoadDevices(db(), 17, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) });
    await db().execute(sql`update devices set rolled_until = to_timestamp(${HORIZON})`);
  });

  it("folds every due device exactly once when two passes run at once (two ticks, or two instances)", async () => {
    const due = await stillDue();
    expect(due).toBeGreaterThan(4 * PGLITE_FOLD_BATCH);
    const [a, b] = await Promise.all([
      foldRollups(db(), AT, () => false, PGLITE_FOLD_BATCH),
      foldRollups(db(), AT, () => false, PGLITE_FOLD_BATCH),
    ]);
    expect(a + b).toBe(due);
    expect(await stillDue()).toBe(0);
    // Nothing left for a third.
    expect(await foldRollups(db(), AT, () => false, PGLITE_FOLD_BATCH)).toBe(0);
  });

  it("stops after the transaction during which it was told to stop, or at most one more when told during a turn", async () => {
    const due = await stillDue();
    expect(await foldRollups(db(), AT, () => true, PGLITE_FOLD_BATCH)).toBe(PGLITE_FOLD_BATCH);
    expect(await stillDue()).toBe(due - PGLITE_FOLD_BATCH);
    let stop = false;
    setImmediate(() => (stop = true));
    const folded = await foldRollups(db(), AT, () => stop, PGLITE_FOLD_BATCH);
    expect(folded).toBeLessThanOrEqual(2 * PGLITE_FOLD_BATCH);
    expect(await stillDue()).toBe(due - PGLITE_FOLD_BATCH - folded);
  });
});

// ------------------------------------------------------------------ the 503 of a lane behind

describe("attack 0130: pushes refused while their lane is behind", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  /** A lane whose batches wait 1 s for company: it is "behind" after 300 ms (wide margins on 2 cores). */
  const LANE = { batch: { maxBatch: 50, lingerMs: 1_000, maxRunning: 1 }, behindAfterMs: 300 };
  const push = (i: number, value: number, time = NOW_S - 30, uptime?: number) => ({
    macAddress: loadMac(i),
    readings: [{ channelKey: loadChannelKey(i, 0), value, time }],
    ...(uptime === undefined ? {} : { uptime }),
  });
  const samples = async (i: number, time: number) =>
    (
      await rows<{ value: number }>(
        db(),
        sql`select s.value from samples s join channels c on c.id = s.channel_id
          where c.channel_key = ${loadChannelKey(i, 0)} and s.time = to_timestamp(${time})`,
      )
    ).map((r) => r.value);
  beforeEach(() => addLoadDevices(db(), 4, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) }));

  it("refuses a device's push without storing anything, and keeps its accepted pushes in arrival order", async () => {
    const [before] = await rows<{ uptime: number | null; at: string | null }>(
      db(),
      sql`select uptime, last_message_at as at from devices where mac_address = ${loadMac(0)}`,
    );
    const p1 = ingestPush(db(), loadKey(0), push(0, 1), TEST_NOW, LANE);
    await sleep(10);
    const p3 = ingestPush(db(), loadKey(0), push(0, 3), TEST_NOW, LANE);
    await sleep(600);
    const refusedAt = performance.now();
    const p2 = ingestPush(db(), loadKey(0), push(0, 2, NOW_S - 20, 999), TEST_NOW, LANE);
    await expect(p2).rejects.toMatchObject({ status: 503, message: PUSHES_BEHIND });
    // Answered at once, not after the pushes before it.
    expect(performance.now() - refusedAt).toBeLessThan(200);
    expect((await p1).accepted).toBe(1);
    const p5 = ingestPush(db(), loadKey(0), push(0, 5), TEST_NOW, LANE);
    expect((await p3).accepted).toBe(1);
    expect((await p5).accepted).toBe(1);
    expect(await samples(0, NOW_S - 30)).toEqual([5]);
    expect(await samples(0, NOW_S - 20)).toEqual([]);
    const [after] = await rows<{ uptime: number | null }>(
      db(),
      sql`select uptime from devices where mac_address = ${loadMac(0)}`,
    );
    expect(after!.uptime).toBe(before!.uptime);
  });

  it.runIf(PG)(
    "does not refuse other devices' pushes while one device's row is held elsewhere (another instance's long transaction)",
    async () => {
      // Remembered devices: no lookup statement on the way.
      for (const i of [0, 1, 2, 3]) await ingestPush(db(), loadKey(i), push(i, 0, NOW_S - 100), TEST_NOW);
      const { Client } = (await import("pg")).default;
      const holder = new Client(
        (db() as unknown as { $client: { options: Record<string, unknown> } }).$client.options,
      );
      await holder.connect();
      try {
        await holder.query("begin");
        await holder.query("select 1 from devices where mac_address = $1 for update", [loadMac(0)]);
        const start = performance.now();
        // Device 0's push and device 3's share a batch, which waits for 0's row (5 s lock
        // timeout), then stores each alone; 0's waits again until the row is let go.
        const held = ingestPush(db(), loadKey(0), push(0, 1), TEST_NOW);
        const beside = ingestPush(db(), loadKey(3), push(3, 1), TEST_NOW);
        await sleep(300);
        // Device 1's push waits for the batch to finish.
        const queued = ingestPush(db(), loadKey(1), push(1, 1), TEST_NOW);
        await sleep(5_800 - (performance.now() - start));
        // Device 2 pushes once, 5.8 s on: the process is not overloaded, one row is held.
        const other = ingestPush(db(), loadKey(2), push(2, 1), TEST_NOW).then(
          (r) => ({ ok: true as const, accepted: r.accepted }),
          (e: { status?: number; message?: string }) => ({
            ok: false as const,
            status: e.status,
            message: e.message,
          }),
        );
        await sleep(700);
        await holder.query("commit");
        expect((await beside).accepted).toBe(1);
        expect((await queued).accepted).toBe(1);
        expect((await held).accepted).toBe(1);
        // Before the 503 it waited about a second and was stored.
        expect(await other).toEqual({ ok: true, accepted: 1 });
      } finally {
        await holder.query("rollback").catch(() => {});
        await holder.end();
      }
    },
    30_000,
  );
});
