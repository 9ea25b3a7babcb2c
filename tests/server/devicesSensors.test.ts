import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { COLD_ROOM, FORBIDDEN, NOT_FOUND, RA_MAC, deviceId, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";
import { rowsOf } from "./ownership.ts";

const UPDATE = "/api/v1/device-data/update-sensor/";
const NORTHWIND_GROUP = "00:1A:2B:3C:4D:04_BASE04_1300_0";
const AIR_QUALITY = "00:1A:2B:3C:4D:02_O2C001_1400_0";
const NOT_ADJUSTABLE =
  "Adjustments apply only to temperature, humidity, heat index, dew point, voltage and computed analog channels.";

describe("sensor settings", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const detailsOf = async (b: Awaited<ReturnType<typeof signedIn>>) => {
    const id = await deviceId(db(), "Lab Base Station");
    return (await (await b.get(`/api/v1/device-data/device-details/${id}`)).json()).data.device;
  };

  it("saves the label, hidden flag and adjustments in Celsius; readings are served adjusted", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const res = await admin.json(
      UPDATE,
      {
        channelKey: COLD_ROOM,
        label: "  Cold Room 2 ",
        isHidden: true,
        channels: [
          { channelKey: `${COLD_ROOM}_1`, adjust: -0.556 },
          { channelKey: `${COLD_ROOM}_2`, adjust: 3 },
        ],
      },
      "PATCH",
    );
    expect(res.status).toBe(200);
    const { channelGroup } = (await res.json()).data;
    expect(channelGroup).toMatchObject({ channelKey: COLD_ROOM, label: "Cold Room 2", isHidden: true });
    expect(channelGroup.channels[0]).toMatchObject({ adjust: -0.56, value: 3.64 });
    expect(channelGroup.channels[1]).toMatchObject({ adjust: 3, value: 81 });
    const sensor = (await detailsOf(admin)).sensors.find(
      (s: { macAddress: string }) => s.macAddress === "W1A001",
    );
    expect(sensor.label).toBe("Cold Room 2");
  });

  it("shows and hides with empty channels, leaving the label as it was", async () => {
    const manager = await signedIn(ctx, "manager@example.com");
    const hidden = `${RA_MAC}_W1A005_1200_0`;
    const res = await manager.json(UPDATE, { channelKey: hidden, channels: [], isHidden: false }, "PATCH");
    expect((await res.json()).data.channelGroup).toMatchObject({ isHidden: false, label: "Storage Closet" });
  });

  it("lets a Provisioner save and refuses a Viewer with 403", async () => {
    const provisioner = await signedIn(ctx, "provisioner@example.com");
    expect((await provisioner.json(UPDATE, { channelKey: COLD_ROOM, label: "P" }, "PATCH")).status).toBe(200);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const res = await viewer.json(UPDATE, { channelKey: COLD_ROOM, label: "V" }, "PATCH");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(FORBIDDEN);
  });

  it("puts label problems on the label field", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const cases: [unknown, string][] = [
      ["x".repeat(51), "Label must be 50 characters or fewer."],
      ["tab\there", "Label must not contain control characters."],
      [12, "Label must be 50 characters or fewer."],
    ];
    for (const [label, message] of cases) {
      const res = await admin.json(UPDATE, { channelKey: COLD_ROOM, label }, "PATCH");
      expect.soft(res.status).toBe(400);
      expect.soft((await res.json()).data).toEqual([{ field: "label", message }]);
    }
    expect((await admin.json(UPDATE, { channelKey: COLD_ROOM, label: "é".repeat(50) }, "PATCH")).status).toBe(
      200,
    );
  });

  it("refuses adjustments out of range, on channels that take none, and on another sensor's channels", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const send = (channelKey: string, channels: unknown) =>
      admin
        .json(UPDATE, { channelKey, channels }, "PATCH")
        .then(async (r) => ({ status: r.status, body: await r.json() }));
    const outOfRange = await send(COLD_ROOM, [{ channelKey: `${COLD_ROOM}_1`, adjust: 101 }]);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.data[0]).toEqual({
      field: "channels.0.adjust",
      message: "Adjustment must be a number from -100 to 100.",
    });
    const co2 = await send(AIR_QUALITY, [{ channelKey: `${AIR_QUALITY}_8`, adjust: 5 }]);
    expect(co2.body.data).toEqual([{ field: "channels.0.adjust", message: NOT_ADJUSTABLE }]);
    const elsewhere = await send(COLD_ROOM, [{ channelKey: `${RA_MAC}_W1A002_1200_0_1`, adjust: 1 }]);
    expect(elsewhere.body.data).toEqual([
      { field: "channels.0.channelKey", message: "That channel does not belong to this sensor." },
    ]);
    for (const bad of [
      [{ channelKey: "nope", adjust: 1 }],
      [{ channelKey: `${COLD_ROOM}_1`, adjust: "1" }],
      "x",
    ])
      expect.soft((await send(COLD_ROOM, bad)).status).toBe(400);
    expect((await send(AIR_QUALITY, [{ channelKey: `${AIR_QUALITY}_8`, adjust: 0 }])).status).toBe(200);
    const [row] = await rowsOf<{ adjust: number }>(
      db(),
      sql`select adjust from channels where channel_key = ${`${COLD_ROOM}_1`}`,
    );
    expect(row!.adjust).toBe(0);
  });

  it("answers another subscription's sensor like a missing one, and a malformed key with 400", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const foreign = await admin.json(UPDATE, { channelKey: NORTHWIND_GROUP, label: "Mine" }, "PATCH");
    const missing = await admin.json(UPDATE, { channelKey: `${RA_MAC}_NOPE_1200_0`, label: "Mine" }, "PATCH");
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
    const malformed = await admin.json(UPDATE, { channelKey: `${COLD_ROOM}_1`, label: "x" }, "PATCH");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).data[0].field).toBe("channelKey");
  });
});

describe("the channel list", () => {
  const ctx = useTestApp({ seeded: true });

  it("names each channel 'sensor - channel', base station first", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const { channelList } = (await (await viewer.get(`/api/v1/alerts/channel-list/${id}`)).json()).data;
    expect(channelList[0]).toMatchObject({ name: "Base Station - Temperature", kind: "temperature" });
    expect(channelList.map((c: { name: string }) => c.name)).toContain("Cold Room - Humidity");
    expect(
      channelList.find((c: { sensorLabel: string }) => c.sensorLabel === "Storage Closet").isHidden,
    ).toBe(true);
  });

  it("answers another subscription's device like a missing one", async () => {
    const other = await signedIn(ctx, "owner@northwind.example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    expect(await (await other.get(`/api/v1/alerts/channel-list/${id}`)).json()).toEqual(NOT_FOUND);
  });
});
