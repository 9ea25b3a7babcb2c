import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { channels, devices } from "../../server/db/schema/index.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { quoted } from "../../server/db/literal.ts";
import { latestValue, storeLatestValues } from "../../server/data/channelValue.ts";
import { ingestPush } from "../../server/data/ingest.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_HUM, COLD_TEMP, KEY, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

const OTHER_MAC = "00:1A:2B:3C:4D:02";
const T = NOW_S - 5;

/*
 * Attacks on the remembered push devices (data/ingestLookup.ts), the shape count (migration
 * 0027), the arrival order of one MAC's pushes, and a channel's latest value (channelValue.ts).
 */
describe("attacks on remembered push devices", () => {
  const { ctx, push } = useIngestApp({ unlimited: true });
  const db = () => ctx.database.db;
  const send = (channelKey: string, value: number, key: string | null = KEY, mac = MAC, time = T) =>
    push({ macAddress: mac, readings: [{ channelKey, value, time }] }, key);
  const samplesOf = async (channelKey: string, time = T) =>
    (
      await rows<{ value: number; device: string }>(
        db(),
        sql`select s.value, d.mac_address as device from samples s join channels c on c.id = s.channel_id
          join channel_groups g on g.id = c.channel_group_id join sensors se on se.id = g.sensor_id
          join devices d on d.id = se.device_id
          where c.channel_key = ${channelKey} and s.time = ${new Date(time * 1000).toISOString()}::timestamptz`,
      )
    ).map((r) => r.value);
  const coldSensor = sql`(select g.sensor_id from channel_groups g join channels c on c.channel_group_id = g.id
    where c.channel_key = ${COLD_TEMP})`;
  /** The lab device copied under a new id and MAC `mac`'s old owner removed: sensors move over. */
  const recreate = async (keyHash = sha256(KEY)) => {
    await db().execute(sql`update devices set mac_address = 'gone' where mac_address = ${MAC}`);
    await db()
      .execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
      select subscription_id, name, type, device_type, ${MAC}, serialnumber || 'n', ${keyHash} from devices where mac_address = 'gone'`);
    await db().execute(sql`update sensors set device_id = (select id from devices where mac_address = ${MAC})
      where device_id = (select id from devices where mac_address = 'gone')`);
    await db().execute(sql`delete from devices where mac_address = 'gone'`);
  };

  // ---------------------------------------------------------------- findings

  it("finding 1 (closed): a device whose MAC changed keeps taking pushes under its old MAC (remembered copy)", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    // The device gets another MAC (a replaced board, a typo fixed by ops). No shape change.
    await db().execute(sql`update devices set mac_address = '00:1A:2B:3C:4D:99' where mac_address = ${MAC}`);
    // Without the memory (a fresh lookup, another instance, a restart) no device has MAC any more: 401.
    const res = await send(COLD_TEMP, 2);
    expect(res.status).toBe(401);
    expect(await samplesOf(COLD_TEMP)).toEqual([1]);
  });

  it("finding 1b (closed): after the MAC is given to another device, the old device's key still writes under it", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    await db().execute(sql`update devices set mac_address = '00:1A:2B:3C:4D:99' where mac_address = ${MAC}`);
    // A new device now owns MAC, with its own key.
    const otherKey = randomToken();
    await db()
      .execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
      select subscription_id, 'new', type, device_type, ${MAC}, serialnumber || 'x', ${sha256(otherKey)} from devices where mac_address = '00:1A:2B:3C:4D:99'`);
    // The old key for MAC: the device with MAC does not have that key.
    expect((await send(COLD_TEMP, 3, KEY)).status).toBe(401);
  });

  it("finding 2 (closed): a correction at the stored value's second is never stored on the row, and is lost once its month is dropped", async () => {
    const id = (
      await db().select({ id: channels.id }).from(channels).where(eq(channels.channelKey, COLD_TEMP))
    )[0]!.id;
    await db().execute(sql`delete from samples where channel_id = ${id}`);
    await db().update(channels).set({ value: null, valueAt: null }).where(eq(channels.id, id));
    const latest = async () =>
      (await db().select({ v: latestValue }).from(channels).where(eq(channels.id, id)))[0]!.v;
    expect((await send(COLD_TEMP, 5, KEY, MAC, NOW_S - 30)).status).toBe(200);
    await storeLatestValues(db(), [id]); // the fold job
    expect((await send(COLD_TEMP, 6, KEY, MAC, NOW_S - 30)).status).toBe(200); // a correction
    expect(await latest()).toBe(6);
    await storeLatestValues(db(), [id]); // the fold job again: `n.time > c.value_at` skips it
    // Retention drops the month's partition (dataRetention.ts): the row is all that is left.
    await db().execute(sql`delete from samples where channel_id = ${id}`);
    expect(await latest()).toBe(6);
  });

  it("finding 3 (closed): a device re-created under its MAC: a later push (correction) in the same batch as an earlier push's re-check loses", async () => {
    const LINGER = { maxBatch: 500, lingerMs: 300, maxRunning: 1 };
    const one = (value: number) => ({
      macAddress: MAC,
      readings: [{ channelKey: COLD_TEMP, value, time: T - 1 }],
    });
    // Remember the device (old id).
    await ingestPush(db(), KEY, one(0), TEST_NOW, { batch: LINGER });
    await recreate();
    // P1 checked against the old copy: its batch finds the row gone (ShapeChanged), looks the
    // device up afresh (new id) and queues again, in the turn of the OLD id.
    const p1 = ingestPush(db(), KEY, one(1), TEST_NOW, { batch: LINGER });
    await new Promise((r) => setTimeout(r, 450));
    // P2 arrives later, is checked against the fresh copy (new id): its turn is the NEW id's,
    // so it does not wait for P1 and joins P1's retry in one batch.
    const p2 = ingestPush(db(), KEY, one(2), TEST_NOW, { batch: LINGER });
    await Promise.all([p1, p2]);
    // The later push's reading of that second is the one kept (as for any other device).
    expect(await samplesOf(COLD_TEMP, T - 1)).toEqual([2]);
  });

  // ---------------------------------------------------------------- holds

  it("holds: a MAC unknown at its first push is not remembered as unknown", async () => {
    const NEW = "00:1A:2B:3C:4D:77";
    expect((await send(COLD_TEMP, 1, KEY, NEW)).status).toBe(401);
    await db().execute(sql`update devices set mac_address = ${NEW} where mac_address = ${MAC}`);
    expect((await send(COLD_TEMP, 2, KEY, NEW)).status).toBe(200);
    expect(await samplesOf(COLD_TEMP)).toEqual([2]);
  });

  it("holds: a re-keyed channel: its old key is refused and the new one taken", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const renamed = `${MAC}_W1A001_1200_0_8`;
    await db().execute(sql`update channels set channel_key = ${renamed} where channel_key = ${COLD_TEMP}`);
    expect((await send(COLD_TEMP, 2, KEY, MAC, T - 1)).status).toBe(400);
    expect((await send(renamed, 3, KEY, MAC, T - 1)).status).toBe(200);
    expect(await samplesOf(renamed, T - 1)).toEqual([3]);
  });

  it("holds: a channel group moved to another device's sensor is refused, nothing written", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    await db()
      .execute(sql`update channel_groups set sensor_id = (select s.id from sensors s join devices d on d.id = s.device_id
        where d.mac_address = ${OTHER_MAC} order by s.id limit 1)
      where id = (select channel_group_id from channels where channel_key = ${COLD_TEMP})`);
    expect((await send(COLD_TEMP, 2, KEY, MAC, T - 1)).status).toBe(400);
    expect(await samplesOf(COLD_TEMP, T - 1)).toEqual([]);
  });

  it("holds: a channel moved into another device's group is refused, nothing written", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    await db()
      .execute(sql`update channels set channel_group_id = (select g.id from channel_groups g join sensors s on s.id = g.sensor_id
        join devices d on d.id = s.device_id where d.mac_address = ${OTHER_MAC} order by g.id limit 1)
      where channel_key = ${COLD_TEMP}`);
    expect((await send(COLD_TEMP, 2, KEY, MAC, T - 1)).status).toBe(400);
    expect(await samplesOf(COLD_TEMP, T - 1)).toEqual([]);
  });

  it("holds: a sensor whose MAC changed is refused by its old MAC; a sensor removed (cascade) refuses its channels", async () => {
    const [{ mac }] = (await rows<{ mac: string }>(
      db(),
      sql`select mac_address as mac from sensors where id = ${coldSensor}`,
    )) as [{ mac: string }];
    const withSensor = (sensorMac: string, value: number) =>
      push({
        macAddress: MAC,
        readings: [{ channelKey: COLD_HUM, value, time: T }],
        sensors: [{ macAddress: sensorMac, battery: 50 }],
      });
    expect((await withSensor(mac, 1)).status).toBe(200);
    await db().execute(sql`update sensors set mac_address = ${`${mac}x`} where id = ${coldSensor}`);
    expect((await withSensor(mac, 2)).status).toBe(400);
    expect((await withSensor(`${mac}x`, 3)).status).toBe(200);
    await db().execute(sql`delete from sensors where mac_address = ${`${mac}x`}`);
    expect((await send(COLD_TEMP, 4, KEY, MAC, T - 2)).status).toBe(400);
  });

  it("holds: a device re-created under its MAC with a new key: old key 401, new key stored in the new device", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const next = randomToken();
    await recreate(sha256(next));
    expect((await send(COLD_TEMP, 2, KEY, MAC, T - 1)).status).toBe(401);
    expect((await send(COLD_TEMP, 3, next, MAC, T - 1)).status).toBe(200);
    expect(await samplesOf(COLD_TEMP, T - 1)).toEqual([3]);
  });

  it("holds: suspended or re-keyed after being remembered, with pushes in flight: never a 2xx", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const inFlight = Array.from({ length: 10 }, (_, i) => send(COLD_TEMP, 10 + i, KEY, MAC, T - 10 - i));
    await db().update(devices).set({ isSuspended: true }).where(eq(devices.macAddress, MAC));
    await Promise.all(inFlight);
    for (let i = 0; i < 5; i++)
      expect((await send(COLD_TEMP, 100 + i, KEY, MAC, T - 30 - i)).status).toBe(403);
    await db()
      .update(devices)
      .set({ isSuspended: false, ingestKeyHash: sha256(randomToken()) })
      .where(eq(devices.macAddress, MAC));
    expect((await send(COLD_TEMP, 200, KEY, MAC, T - 40)).status).toBe(401);
    expect((await send(COLD_TEMP, 201, null, MAC, T - 40)).status).toBe(401);
    expect(await samplesOf(COLD_TEMP, T - 40)).toEqual([]);
  });

  it("holds: strangers with wrong keys for a real MAC and made-up MACs: all 401, the real device's pushes all stored", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const strangers = Array.from({ length: 100 }, (_, i) =>
      i % 2
        ? send(COLD_TEMP, 9, randomToken(), MAC, T - 100 - i)
        : send(COLD_TEMP, 9, KEY, `02:00:00:00:${String(i).padStart(2, "0")}:00`, T - 100 - i),
    );
    const mine = Array.from({ length: 20 }, (_, i) => send(COLD_HUM, i, KEY, MAC, T - 300 - i));
    const s = await Promise.all(strangers);
    const m = await Promise.all(mine);
    expect(new Set(s.map((r) => r.status))).toEqual(new Set([401]));
    expect(m.map((r) => r.status)).toEqual(m.map(() => 200));
    expect(await samplesOf(COLD_TEMP, T - 101)).toEqual([]);
    for (let i = 0; i < 20; i++) expect(await samplesOf(COLD_HUM, T - 300 - i)).toEqual([i]);
  });

  it("holds: a retried push stores its readings once, and a correction wins", async () => {
    const body = { macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 4, time: T - 7 }] };
    const [a, b] = await Promise.all([push(body), push(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await samplesOf(COLD_TEMP, T - 7)).toEqual([4]);
    expect((await send(COLD_TEMP, 5, KEY, MAC, T - 7)).status).toBe(200);
    expect(await samplesOf(COLD_TEMP, T - 7)).toEqual([5]);
  });

  it("holds: one MAC's pushes for the same second keep arrival order (last wins)", async () => {
    await send(COLD_TEMP, 0, KEY, MAC, T - 8);
    const all = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(COLD_TEMP, i + 1, KEY, MAC, T - 8)),
    );
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(await samplesOf(COLD_TEMP, T - 8)).toEqual([30]);
  });

  it("holds: quoted() literals round-trip quotes and backslashes (statementWithCommit payloads)", async () => {
    for (const evil of [
      `a'b`,
      `x\\'); drop table samples; --`,
      `\\`,
      `'||pg_sleep(1)||'`,
      `{"deviceIds":[1,2]}`,
    ]) {
      const [r] = await rows<{ v: string }>(db(), sql.raw(`select ${quoted(evil)} as v`));
      expect(r!.v).toBe(evil);
    }
  });

  it("holds: a channel deleted while its pushes are in flight: 200 or 400, never 5xx", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const inFlight = Array.from({ length: 20 }, (_, i) => send(COLD_TEMP, i, KEY, MAC, T - 50 - i));
    await db().execute(sql`delete from channels where channel_key = ${COLD_TEMP}`);
    const statuses = (await Promise.all(inFlight)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
    expect((await send(COLD_HUM, 1)).status).toBe(200);
  });
});
