import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { channels, devices, sensors } from "../../server/db/schema/index.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { BAD_DEVICE_KEY, SUSPENDED, TIME_OUT_OF_RANGE, UNKNOWN_CHANNEL } from "../../server/data/ingest.ts";
import { MAX_READING, READING_RULE } from "../../src/api/readings.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_HUM, COLD_TEMP, KEY, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";
import { latestValue } from "../../server/data/channelValue.ts";

describe("device push ingestion", () => {
  const { ctx, push, sampleCount } = useIngestApp({ unlimited: true });

  it("stores readings, the latest value, last push, uptime and sensor battery", async () => {
    const before = await sampleCount();
    const res = await push({
      macAddress: MAC,
      uptime: 4242,
      readings: [
        { channelKey: COLD_TEMP, value: 5.5, time: NOW_S - 120 },
        // The seed's newest sample is at now: this reading replaces it and is the newest.
        { channelKey: COLD_TEMP, value: 6.25, time: NOW_S },
        { channelKey: COLD_HUM, value: 70, time: NOW_S - 10 },
      ],
      sensors: [{ macAddress: "W1A001", battery: 55, signal: -70 }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { accepted: 3 } });
    expect(await sampleCount()).toBe(before + 2);
    const [temp] = await ctx.database.db
      .select({ value: latestValue })
      .from(channels)
      .where(eq(channels.channelKey, COLD_TEMP));
    expect(temp!.value).toBe(6.25);
    const [device] = await ctx.database.db.select().from(devices).where(eq(devices.macAddress, MAC));
    expect(device!.uptime).toBe(4242);
    expect(device!.pushStatus).toBe(1);
    expect(device!.lastMessageAt!.getTime()).toBe(TEST_NOW.getTime());
    const [sensor] = await ctx.database.db.select().from(sensors).where(eq(sensors.macAddress, "W1A001"));
    expect(sensor!.battery).toBe(55);
    expect(sensor!.signal).toBe(-70);
  });

  it("keeps a channel's newer value when older readings arrive late", async () => {
    const value = async () =>
      (
        await ctx.database.db
          .select({ value: latestValue })
          .from(channels)
          .where(eq(channels.channelKey, COLD_TEMP))
      )[0]!.value;
    const at = (time: number, v: number) =>
      push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: v, time }] });
    expect((await at(NOW_S, 9.5)).status).toBe(200);
    expect(await value()).toBe(9.5);
    expect((await at(NOW_S - 300, 1.5)).status).toBe(200);
    expect(await value()).toBe(9.5);
    // A correction of the newest reading itself is the value again.
    expect((await at(NOW_S, 8.5)).status).toBe(200);
    expect(await value()).toBe(8.5);
  });

  it("gives the group and sensor their newest reading's time, never an earlier one", async () => {
    const lastReceived = async () =>
      (
        await rows<{ g: Date; s: Date }>(
          ctx.database.db,
          sql`select g.last_received_at as g, s.last_received_at as s from channels c
            join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
            where c.channel_key = ${COLD_TEMP}`,
        )
      )[0]!;
    const at = (s: number) => new Date(s * 1000).getTime();
    const readings = (t: number) => [
      { channelKey: COLD_TEMP, value: 1, time: t - 30 },
      { channelKey: COLD_HUM, value: 2, time: t },
    ];
    expect((await push({ macAddress: MAC, readings: readings(NOW_S - 60) })).status).toBe(200);
    const first = await lastReceived();
    expect([new Date(first.g).getTime(), new Date(first.s).getTime()]).toEqual([
      at(NOW_S - 60),
      at(NOW_S - 60),
    ]);
    // A late push of older readings leaves the times where they were.
    expect((await push({ macAddress: MAC, readings: readings(NOW_S - 600) })).status).toBe(200);
    const second = await lastReceived();
    expect([new Date(second.g).getTime(), new Date(second.s).getTime()]).toEqual([
      at(NOW_S - 60),
      at(NOW_S - 60),
    ]);
  });

  it("refuses a wrong or missing key with 401 and the same message", async () => {
    const body = { macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 1 }] };
    for (const key of ["wrong", demoDeviceKey(MAC), demoDeviceKey("00:1A:2B:3C:4D:02"), null]) {
      const res = await push(body, key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: BAD_DEVICE_KEY }] });
    }
    const unknownDevice = await push({ ...body, macAddress: "FF:FF" }, demoDeviceKey("FF:FF"));
    expect(unknownDevice.status).toBe(401);
  });

  it("stores nothing when one reading of a push is for another device's channel", async () => {
    const before = await sampleCount();
    const res = await push({
      macAddress: MAC,
      readings: [
        { channelKey: COLD_TEMP, value: 1 },
        { channelKey: "00:1A:2B:3C:4D:03_WS2001_1300_0_1", value: 2 },
      ],
    });
    expect(res.status).toBe(400);
    expect((await res.json()).data).toEqual([{ field: "readings.1.channelKey", message: UNKNOWN_CHANNEL }]);
    expect(await sampleCount()).toBe(before);
    const [temp] = await ctx.database.db
      .select({ value: latestValue })
      .from(channels)
      .where(eq(channels.channelKey, COLD_TEMP));
    expect(temp!.value).toBe(4.2);
  });

  it("refuses a value beyond a billion either way, and keeps the push's other readings out", async () => {
    const before = await sampleCount();
    for (const value of [1.7e308, -1.7e308, MAX_READING + 1, -MAX_READING - 1]) {
      const res = await push({
        macAddress: MAC,
        readings: [
          { channelKey: COLD_TEMP, value: 1 },
          { channelKey: COLD_TEMP, value, time: NOW_S - 1 },
        ],
      });
      expect(res.status).toBe(400);
      expect((await res.json()).data).toEqual([{ field: "readings.1.value", message: READING_RULE }]);
    }
    expect(await sampleCount()).toBe(before);
    for (const value of [MAX_READING, -MAX_READING]) {
      const res = await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value }] });
      expect(res.status).toBe(200);
    }
  });

  it("refuses readings from the future or older than 7 days", async () => {
    for (const time of [NOW_S + 3600, NOW_S - 8 * 86400]) {
      const res = await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 1, time }] });
      expect(res.status).toBe(400);
      expect((await res.json()).data).toEqual([{ field: "readings.0.time", message: TIME_OUT_OF_RANGE }]);
    }
  });

  it.each([
    ["a body that is not JSON", "{oops", 400],
    ["an empty reading list", { macAddress: MAC, readings: [] }, 400],
    ["a malformed channel key", { macAddress: MAC, readings: [{ channelKey: "nope", value: 1 }] }, 400],
    [
      "a value that is not a number",
      { macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: "hot" }] },
      400,
    ],
    [
      "an unknown field",
      { macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 1 }], extra: true },
      400,
    ],
    ["a JSON array", [1, 2], 400],
  ])("answers %s with a clear 4xx", async (_name, body, status) => {
    const res = await push(body);
    expect(res.status).toBe(status);
    const json = await res.json();
    expect(json.success).toBe(false);
    expect(json.data[0].message).toEqual(expect.any(String));
  });

  it("insists on application/json and refuses oversized pushes", async () => {
    expect((await push("macAddress=x", KEY, "application/x-www-form-urlencoded")).status).toBe(415);
    // Another JSON-based type is not this one.
    expect((await push({ macAddress: MAC, readings: [] }, KEY, "application/json-patch+json")).status).toBe(
      415,
    );
    const big = JSON.stringify({ macAddress: MAC, readings: [], pad: "x".repeat(300 * 1024) });
    expect((await push(big)).status).toBe(413);
  });

  it("refuses pushes from a suspended device", async () => {
    await ctx.database.db.update(devices).set({ isSuspended: true }).where(eq(devices.macAddress, MAC));
    const res = await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 1 }] });
    expect(res.status).toBe(403);
    expect((await res.json()).data[0].message).toBe(SUSPENDED);
  });

  it("overwrites a repeated reading for the same time instead of failing", async () => {
    const reading = { channelKey: COLD_TEMP, value: 3, time: NOW_S - 30 };
    expect((await push({ macAddress: MAC, readings: [reading] })).status).toBe(200);
    expect((await push({ macAddress: MAC, readings: [{ ...reading, value: 3.5 }] })).status).toBe(200);
    const found = await rows<{ value: number }>(
      ctx.database.db,
      sql`select value from samples where time = ${new Date((NOW_S - 30) * 1000).toISOString()}::timestamptz`,
    );
    expect(found).toEqual([{ value: 3.5 }]);
  });
  it("keeps the last of two readings for one channel at one time instead of losing the push", async () => {
    const res = await push({
      macAddress: MAC,
      readings: [
        { channelKey: COLD_TEMP, value: 1 },
        { channelKey: COLD_HUM, value: 60 },
        { channelKey: COLD_TEMP, value: 2 },
        { channelKey: COLD_TEMP, value: 7, time: NOW_S - 5 },
        { channelKey: COLD_TEMP, value: 8, time: NOW_S - 5 },
      ],
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ accepted: 3 });
    const found = await rows<{ time: Date; value: number }>(
      ctx.database.db,
      sql`select s.time, s.value from samples s join channels c on c.id = s.channel_id
          where c.channel_key = ${COLD_TEMP} and s.time >= ${new Date((NOW_S - 5) * 1000).toISOString()}::timestamptz
          order by s.time`,
    );
    expect(found.map((r) => r.value)).toEqual([8, 2]);
    const [temp] = await ctx.database.db
      .select({ value: latestValue })
      .from(channels)
      .where(eq(channels.channelKey, COLD_TEMP));
    expect(temp!.value).toBe(2);
  });

  it.each([
    ["arrays", (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`],
    ["objects", (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`],
    ["readings", (n: number) => `{"macAddress":"${MAC}","readings":${"[".repeat(n)}${"]".repeat(n)}}`],
  ])("refuses %s nested 5,000 deep with a 400, without a key", async (_name, nested) => {
    const res = await push(nested(5000), null);
    expect(res.status).toBe(400);
    expect((await res.json()).data).toEqual([{ field: null, message: "The request is nested too deeply." }]);
  });
});
