import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { sha256, randomToken } from "../../server/core/crypto.ts";
import { pushDevicesQuery } from "../../server/data/ingestLookup.ts";
import { COLD_HUM, COLD_TEMP, KEY, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

const OTHER_MAC = "00:1A:2B:3C:4D:02";

/*
 * A process remembers each pushing device's sensors and channels (data/ingestLookup.ts) and
 * checks pushes against that copy; every change to them counts on the device's row
 * (migration 0027), and a push is stored only if the count under the row's lock is the copy's.
 */
describe("remembered push devices", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const send = (channelKey: string, value: number, key = KEY) =>
    push({ macAddress: MAC, readings: [{ channelKey, value, time: NOW_S - 5 }] }, key);
  const samplesOf = async (channelKey: string) =>
    (
      await rows<{ value: number }>(
        db(),
        sql`select s.value from samples s join channels c on c.id = s.channel_id
          where c.channel_key = ${channelKey} and s.time = ${new Date((NOW_S - 5) * 1000).toISOString()}::timestamptz`,
      )
    ).map((r) => r.value);
  const shapeOf = async (mac: string) =>
    (await db().select({ v: devices.shapeVersion }).from(devices).where(eq(devices.macAddress, mac)))[0]!.v;
  /** The lab sensor that carries COLD_TEMP. */
  const coldSensor = sql`(select g.sensor_id from channel_groups g join channels c on c.channel_group_id = g.id
    where c.channel_key = ${COLD_TEMP})`;

  it("keeps its count through pushes: the push path's own updates change no device's shape", async () => {
    const before = await shapeOf(MAC);
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    expect((await send(COLD_HUM, 2)).status).toBe(200);
    expect(await shapeOf(MAC)).toBe(before);
  });

  it("refuses a remembered channel whose sensor moved to another device, and writes nothing into it", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const [moved, other] = [await shapeOf(MAC), await shapeOf(OTHER_MAC)];
    await db().execute(
      sql`update sensors set device_id = (select id from devices where mac_address = ${OTHER_MAC}) where id = ${coldSensor}`,
    );
    expect(await shapeOf(MAC)).toBeGreaterThan(moved);
    expect(await shapeOf(OTHER_MAC)).toBeGreaterThan(other);
    const res = await send(COLD_TEMP, 99);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Unknown channel for this device.");
    expect(await samplesOf(COLD_TEMP)).toEqual([1]);
  });

  it("refuses a remembered channel removed since with a 400, not a failed batch", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    await db().execute(sql`delete from channels where channel_key = ${COLD_TEMP}`);
    const res = await send(COLD_TEMP, 2);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Unknown channel for this device.");
    expect((await send(COLD_HUM, 3)).status).toBe(200);
  });

  it("takes a channel added since the device was remembered", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const added = `${MAC}_W1A001_1200_0_9`;
    await db().execute(
      sql`insert into channels (channel_group_id, channel_key, channel_type, kind, name)
        select channel_group_id, ${added}, 99, 'temperature', 'Added' from channels where channel_key = ${COLD_TEMP}`,
    );
    expect((await send(added, 7)).status).toBe(200);
    expect(await samplesOf(added)).toEqual([7]);
  });

  it("takes a device's new key at once and refuses its old one", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    const next = randomToken();
    await db()
      .update(devices)
      .set({ ingestKeyHash: sha256(next) })
      .where(eq(devices.macAddress, MAC));
    expect((await send(COLD_TEMP, 2, next)).status).toBe(200);
    expect((await send(COLD_TEMP, 3, KEY)).status).toBe(401);
    expect(await samplesOf(COLD_TEMP)).toEqual([2]);
  });

  it("takes a device back that was suspended when it was remembered", async () => {
    await db().update(devices).set({ isSuspended: true }).where(eq(devices.macAddress, MAC));
    expect((await send(COLD_TEMP, 1)).status).toBe(403);
    await db().update(devices).set({ isSuspended: false }).where(eq(devices.macAddress, MAC));
    expect((await send(COLD_TEMP, 2)).status).toBe(200);
    await db().update(devices).set({ isSuspended: true }).where(eq(devices.macAddress, MAC));
    expect((await send(COLD_TEMP, 3)).status).toBe(403);
    expect(await samplesOf(COLD_TEMP)).toEqual([2]);
  });

  it("stores a push for a device removed and added again under its MAC in the new device", async () => {
    expect((await send(COLD_TEMP, 1)).status).toBe(200);
    // The lab device's rows, copied under new ids, then the old device removed.
    await db().execute(sql`update devices set mac_address = 'gone' where mac_address = ${MAC}`);
    await db()
      .execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
      select subscription_id, name, type, device_type, ${MAC}, serialnumber || 'n', ingest_key_hash from devices where mac_address = 'gone'`);
    await db().execute(sql`update sensors set device_id = (select id from devices where mac_address = ${MAC})
      where device_id = (select id from devices where mac_address = 'gone')`);
    await db().execute(sql`delete from devices where mac_address = 'gone'`);
    expect((await send(COLD_TEMP, 2)).status).toBe(200);
    expect(await samplesOf(COLD_TEMP)).toEqual([2]);
  });

  it("finds a pushing device among thousands by the index on its MAC, never by reading every device", async () => {
    await db()
      .execute(sql`insert into devices (subscription_id, name, type, device_type, mac_address, serialnumber, ingest_key_hash)
      select subscription_id, 'Fleet ' || i, 'RA12', 'RA12', 'FL:' || lpad(i::text, 6, '0'), 'SN-FL-' || i, ingest_key_hash
      from devices, generate_series(1, 3000) i where mac_address = ${MAC}`);
    await db().execute(sql`analyze devices`);
    const [row] = await rows<Record<string, unknown>>(
      db(),
      sql`explain (format json) ${pushDevicesQuery([MAC, OTHER_MAC])}`,
    );
    const raw = Object.values(row!)[0];
    type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };
    const [top] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    const scans = (n: PlanNode): string[] => [
      ...(n["Relation Name"] === "devices" ? [n["Node Type"]] : []),
      ...(n.Plans ?? []).flatMap(scans),
    ];
    expect(scans(top!.Plan)).not.toEqual([]);
    expect(scans(top!.Plan)).not.toContain("Seq Scan");
  });
});
