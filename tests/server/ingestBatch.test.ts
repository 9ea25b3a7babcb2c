import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { channels, devices } from "../../server/db/schema/index.ts";
import { LIVE_CHANNEL } from "../../server/data/liveNotify.ts";
import { latestValue } from "../../server/data/channelValue.ts";
import { addLoadDevices, loadChannelKey, loadKey, loadMac } from "../../scripts/load/fixtures.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Group commit of device pushes (data/ingest.ts, core/groupCommit.ts): pushes of different
 * devices arriving together are stored in one transaction. A long linger here makes every push
 * sent at once land in one batch, and leaves time to change a device's row while it waits.
 * On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const LINGER_MS = 600;
const DEVICES = 6;

/** Listens to the live channel's raw payloads, on PGlite in process or over a pg connection. */
async function rawListener(db: unknown) {
  const payloads: string[] = [];
  const client = (db as { $client: unknown }).$client as
    | { listen(channel: string, cb: (p: string) => void): Promise<() => Promise<void>> }
    | { options: Record<string, unknown> };
  if ("listen" in client) {
    const unlisten = await client.listen(LIVE_CHANNEL, (p) => payloads.push(p));
    return { payloads, close: () => unlisten() };
  }
  const { Client } = (await import("pg")).default;
  const c = new Client(client.options);
  await c.connect();
  c.on("notification", (n) => n.channel === LIVE_CHANNEL && payloads.push(n.payload ?? ""));
  await c.query(`LISTEN ${LIVE_CHANNEL}`);
  return { payloads, close: () => c.end() };
}

describe("pushes stored together", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  let ids: number[] = [];
  let listener: Awaited<ReturnType<typeof rawListener>>;

  beforeAll(async () => {
    app = buildApp({
      db: ctx.database.db,
      config: { ...testConfig(), pushBatch: { maxBatch: 50, lingerMs: LINGER_MS, maxRunning: 1 } },
      now: () => TEST_NOW,
    });
    listener = await rawListener(ctx.database.db);
  });
  afterAll(() => listener?.close());
  beforeEach(async () => {
    await addLoadDevices(ctx.database.db, DEVICES, { valueAt: new Date(TEST_NOW.getTime() - 3_600_000) });
    const found = await ctx.database.db
      .select({ id: devices.id, mac: devices.macAddress })
      .from(devices)
      .where(sql`${devices.macAddress} like 'LD:%'`);
    const byMac = new Map(found.map((d) => [d.mac, d.id]));
    ids = Array.from({ length: DEVICES }, (_, i) => byMac.get(loadMac(i))!);
    // A second apart: each test's devices are announced afresh (at most once a second each).
    await new Promise((r) => setTimeout(r, 1100));
    listener.payloads.length = 0;
  });

  const push = (i: number, value: number, opts: { key?: string; channel?: string; seconds?: number } = {}) =>
    app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Device ${opts.key ?? loadKey(i)}`,
        "x-forwarded-for": `10.0.0.${i + 1}`,
      },
      body: JSON.stringify({
        macAddress: loadMac(i),
        uptime: 1000 + value,
        readings: [0, 1, 2].map((c) => ({
          channelKey: c === 2 && opts.channel ? opts.channel : loadChannelKey(i, c),
          value: value + c / 10,
          time: NOW_S - (opts.seconds ?? 60),
        })),
      }),
    });
  const samplesOf = (i: number) =>
    rows<{ value: number }>(
      ctx.database.db,
      sql`select s.value from samples s join channels c on c.id = s.channel_id
        where c.channel_key like ${`${loadMac(i)}_%`} order by s.value`,
    );
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it("stores every device's push and announces the batch once, naming only the devices' ids", async () => {
    const answers = await Promise.all(ids.map((_, i) => push(i, 10 * i)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    for (const [i] of ids.entries())
      expect((await samplesOf(i)).map((r) => r.value)).toEqual([10 * i, 10 * i + 0.1, 10 * i + 0.2]);
    const stored = await ctx.database.db
      .select({ id: devices.id, uptime: devices.uptime, status: devices.pushStatus })
      .from(devices)
      .where(inArray(devices.id, ids))
      .orderBy(devices.id);
    expect(stored).toEqual(
      ids.map((id, i) => ({ id, uptime: 1000 + 10 * i, status: 1 })).sort((a, b) => a.id - b.id),
    );
    await settle();
    expect(listener.payloads.map((p) => JSON.parse(p))).toEqual([
      { deviceIds: [...ids].sort((a, b) => a - b) },
    ]);
  });

  it("keeps one device's pushes in the order they came, each in a later batch", async () => {
    const answers = await Promise.all([push(0, 1), push(1, 50), push(0, 2), push(0, 3)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // The three pushes wrote the same channels and second: the last one sent is what stays.
    expect((await samplesOf(0)).map((r) => r.value)).toEqual([3, 3.1, 3.2]);
    const [channel] = await ctx.database.db
      .select({ value: latestValue })
      .from(channels)
      .where(eq(channels.channelKey, loadChannelKey(0, 0)));
    expect(channel!.value).toBe(3);
    // Device 0's later pushes came in batches of their own, within a second of its first: they
    // are announced once, when that second is over, not once each.
    await new Promise((r) => setTimeout(r, 2500));
    expect(listener.payloads.map((p) => JSON.parse(p).deviceIds)).toEqual([
      [ids[0], ids[1]].sort((a, b) => a! - b!),
      [ids[0]],
    ]);
  });

  it("answers a push whose device was suspended or given a new key while it waited, and stores the rest", async () => {
    const sent = ids.map((_, i) => push(i, 10 * i));
    // The pushes are checked and waiting for their batch: the rows change under them.
    await new Promise((r) => setTimeout(r, LINGER_MS / 3));
    await ctx.database.db.update(devices).set({ isSuspended: true }).where(eq(devices.id, ids[1]!));
    await ctx.database.db
      .update(devices)
      .set({ ingestKeyHash: "0".repeat(64) })
      .where(eq(devices.id, ids[2]!));
    const answers = await Promise.all(sent);
    expect(answers.map((a) => a.status)).toEqual([200, 403, 401, 200, 200, 200]);
    expect((await answers[1]!.json()).data[0].message).toBe("This device is suspended and cannot push data.");
    expect((await answers[2]!.json()).data[0].message).toBe("Unknown device or wrong device key.");
    const counts = await Promise.all(ids.map(async (_, i) => (await samplesOf(i)).length));
    expect(counts).toEqual([3, 0, 0, 3, 3, 3]);
    await settle();
    expect(listener.payloads.map((p) => JSON.parse(p).deviceIds)).toEqual([
      [ids[0], ids[3], ids[4], ids[5]].sort((a, b) => a! - b!),
    ]);
  });

  it("refuses a push with a wrong key or another device's channel on its own, storing the others", async () => {
    const answers = await Promise.all([
      push(0, 1),
      push(1, 2, { key: loadKey(4) }),
      push(2, 3, { channel: loadChannelKey(3, 0) }),
      push(3, 4),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 400, 200]);
    const counts = await Promise.all([0, 1, 2, 3].map(async (i) => (await samplesOf(i)).length));
    expect(counts).toEqual([3, 0, 0, 3]);
  });

  it("answers no push 2xx from a batch that failed: each is stored alone, the one that broke it is not", async () => {
    const sent = ids.map((_, i) => push(i, 10 * i));
    await new Promise((r) => setTimeout(r, LINGER_MS / 3));
    // A channel of device 3 goes while its push waits: the batch's insert breaks on it.
    await ctx.database.db.delete(channels).where(eq(channels.channelKey, loadChannelKey(3, 1)));
    const answers = await Promise.all(sent);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((_, i) => i !== 3)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[3]).toBeGreaterThanOrEqual(400);
    const counts = await Promise.all(ids.map(async (_, i) => (await samplesOf(i)).length));
    expect(counts).toEqual([3, 3, 3, 0, 3, 3]);
  });

  it("keeps a channel's newer value when an older push of its device comes in a batch", async () => {
    expect((await push(0, 5, { seconds: 30 })).status).toBe(200);
    const answers = await Promise.all([push(0, 1, { seconds: 90 }), push(1, 2)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [channel] = await ctx.database.db
      .select({ value: latestValue })
      .from(channels)
      .where(eq(channels.channelKey, loadChannelKey(0, 0)));
    expect(channel!.value).toBe(5);
    expect((await samplesOf(0)).length).toBe(6);
  });
});
