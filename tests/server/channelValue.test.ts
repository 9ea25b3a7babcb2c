import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { channels, devices } from "../../server/db/schema/index.ts";
import { latestValue } from "../../server/data/channelValue.ts";
import { foldSome } from "../../server/data/rollupFold.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_HUM, COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

describe("a channel's latest value", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const send = async (readings: { channelKey: string; value: number; time: number }[]) =>
    expect((await push({ macAddress: MAC, readings })).status).toBe(200);
  const latest = async (key = COLD_TEMP) =>
    (await db().select({ value: latestValue }).from(channels).where(eq(channels.channelKey, key)))[0]!.value;
  const row = async (key = COLD_TEMP) => {
    const [r] = await db()
      .select({ value: channels.value, at: channels.valueAt })
      .from(channels)
      .where(eq(channels.channelKey, key));
    return { value: r!.value, at: r!.at ? r!.at.getTime() / 1000 : null };
  };
  /** Runs the fold job on the lab device as if it were due. */
  const fold = async () => {
    await db()
      .update(devices)
      .set({ rolledUntil: new Date(TEST_NOW.getTime() - 86_400_000) })
      .where(eq(devices.macAddress, MAC));
    expect(await foldSome(db(), TEST_NOW)).toBeGreaterThan(0);
  };

  // Channels with no reading yet: neither a seeded value nor a sample (the seed's are as of the
  // test's now, later than the readings here).
  beforeEach(async () => {
    const mine = sql`select id from channels where channel_key like ${`${MAC}_%`}`;
    await db().execute(sql`delete from samples where channel_id in (${mine})`);
    await db().execute(sql`update channels set value = null, value_at = null where id in (${mine})`);
  });

  it("is a push's newest reading, and the push writes nothing to the channel's row", async () => {
    const before = await row();
    await send([
      { channelKey: COLD_TEMP, value: 6.25, time: NOW_S },
      { channelKey: COLD_TEMP, value: 5.5, time: NOW_S - 120 },
      { channelKey: COLD_HUM, value: 70, time: NOW_S - 10 },
    ]);
    expect(await latest()).toBe(6.25);
    expect(await latest(COLD_HUM)).toBe(70);
    expect(await row()).toEqual(before);
  });

  it("is stored on the channel's row by the fold job, and stays the newer one when older readings come late", async () => {
    await send([{ channelKey: COLD_TEMP, value: 5, time: NOW_S - 30 }]);
    await send([{ channelKey: COLD_TEMP, value: 1, time: NOW_S - 90 }]);
    expect(await latest()).toBe(5);
    await fold();
    expect(await row()).toEqual({ value: 5, at: NOW_S - 30 });
    await send([{ channelKey: COLD_TEMP, value: 7, time: NOW_S - 600 }]);
    expect(await latest()).toBe(5);
    await fold();
    expect(await row()).toEqual({ value: 5, at: NOW_S - 30 });
    expect(await latest()).toBe(5);
  });

  it("takes a correction at the stored value's own second", async () => {
    await send([{ channelKey: COLD_TEMP, value: 5, time: NOW_S - 30 }]);
    await fold();
    await send([{ channelKey: COLD_TEMP, value: 6, time: NOW_S - 30 }]);
    expect(await latest()).toBe(6);
  });

  it("is the row's own value when it is newer than every sample (a seeded one)", async () => {
    await send([{ channelKey: COLD_TEMP, value: 5, time: NOW_S - 30 }]);
    await db()
      .update(channels)
      .set({ value: 42, valueAt: new Date((NOW_S - 10) * 1000) })
      .where(eq(channels.channelKey, COLD_TEMP));
    expect(await latest()).toBe(42);
    await fold();
    expect(await row()).toEqual({ value: 42, at: NOW_S - 10 });
  });

  it("is what the device page and its live state show", async () => {
    await send([{ channelKey: COLD_TEMP, value: 3.25, time: NOW_S - 5 }]);
    const [device] = await rows<{ hash: string }>(
      db(),
      sql`select public_page_hash as hash from devices where mac_address = ${MAC}`,
    );
    const res = await ctx.app.request(`/api/v1/device-data/public/device-details/${device!.hash}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('"value":3.25');
  });
});
