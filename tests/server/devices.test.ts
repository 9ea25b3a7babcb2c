import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO } from "../../server/seed/demo.ts";
import { browser } from "./client.ts";
import {
  COLD_ROOM,
  FORBIDDEN,
  NO_SUCH_ID,
  NOT_FOUND,
  ORIGIN,
  deviceId,
  setFeature,
  signedIn,
} from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import { rowsOf } from "./ownership.ts";

const details = (id: number | string) => `/api/v1/device-data/device-details/${id}`;
const publicDetails = (hash: string) => `/api/v1/device-data/public/device-details/${hash}`;
const publicLink = (id: number) => `/api/v1/device-data/public-link/${id}`;
const rename = (id: number | string) => `/api/v1/device-data/update-device/${id}`;
const nowS = TEST_NOW.getTime() / 1000;

describe("device details", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("shows an owner the device with its sensors, tags, link and times in epoch seconds", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const res = await admin.get(details(id));
    expect(res.status).toBe(200);
    const { general, sensors } = (await res.json()).data.device;
    expect(general).toMatchObject({
      id,
      name: "Lab Base Station",
      deviceType: "RA12",
      tagList: [{ name: "Critical" }, { name: "Lab" }],
      publicPageHash: DEMO.raDeviceHash,
      isLinkConnected: true,
      linkName: "Lab Network Link",
      ethIp: "192.168.10.20",
      wifiName: "LabNet",
      isHttps: true,
      httpPort: 8443,
      lastMessageTimestamp: nowS - 240,
      latestFirmware: "4.2.1",
      geocode: { lat: 42.3601, lng: -71.0589 },
    });
    expect(sensors[0]).toMatchObject({ kind: "base", isHub: true, label: "Base Station" });
    const cold = sensors.find((s: { label: string }) => s.label === "Cold Room");
    expect(cold.channelKey).toBe(COLD_ROOM);
    expect(cold.channelGroups[0].channels.map((c: { kind: string }) => c.kind)).toEqual([
      "temperature",
      "humidity",
      "dew_point",
      "heat_index",
    ]);
    expect(cold.channelGroups[0].channels[0]).toMatchObject({
      value: 4.2,
      adjust: 0,
      conversion: { units: "C" },
    });
    expect(sensors.some((s: { label: string }) => s.label === "Storage Closet")).toBe(true);
  });

  it("answers another subscription's device exactly like a missing one", async () => {
    const other = await signedIn(ctx, "owner@northwind.example.com");
    const acmeDevice = await deviceId(db(), "Lab Base Station");
    const foreign = await other.get(details(acmeDevice));
    const missing = await other.get(details(NO_SUCH_ID));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(NOT_FOUND);
    expect(await missing.json()).toEqual(NOT_FOUND);
    expect((await other.get(details("12abc"))).status).toBe(400);
  });
});

describe("the public device page's read", () => {
  const ctx = useTestApp({ seeded: true });
  const anyone = () => browser(ctx.app, ORIGIN);

  it("leaves out the LAN addresses, Wi-Fi name, port, link, coordinates and hidden sensors", async () => {
    const res = await anyone().get(publicDetails(DEMO.raDeviceHash));
    expect(res.status).toBe(200);
    const { general, sensors } = (await res.json()).data.device;
    expect(general).toMatchObject({
      name: "Lab Base Station",
      ethIp: null,
      wlanIp: null,
      wifiName: null,
      httpPort: null,
      isHttps: false,
      linkId: null,
      linkName: "Lab Network Link",
      isLinkConnected: true,
      geocode: null,
      location: "Building 2, Lab 204",
    });
    const labels = sensors.map((s: { label: string }) => s.label);
    expect(labels).toContain("Cold Room");
    expect(labels).not.toContain("Storage Closet");
    expect(JSON.stringify(sensors)).not.toContain('"isHidden":true');
  });

  it("answers an unknown, malformed or deleted hash with the same 404", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    await admin.delete(publicLink(await deviceId(ctx.database.db, "Lab Base Station")));
    for (const hash of [DEMO.raDeviceHash, "x".repeat(22), "a b", "..", "x".repeat(3000), "%00"]) {
      const res = await anyone().get(publicDetails(encodeURIComponent(hash)));
      expect.soft(res.status, hash).toBe(404);
      expect.soft(await res.json()).toEqual(NOT_FOUND);
    }
  });

  it("answers 404 when the subscription's plan has no public URL feature", async () => {
    await setFeature(ctx.database.db, "Acme", "publicUrl", false);
    const res = await anyone().get(publicDetails(DEMO.raDeviceHash));
    expect(res.status).toBe(404);
  });
});

describe("the public link", () => {
  const ctx = useTestApp({ seeded: true });

  it("is created for an RA device under /p/device with a new 256-bit token each time; the old hash fails at once", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const first = (await (await admin.json(publicLink(id), {})).json()).data;
    expect(first.publicPageHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.publicLink).toBe(`/p/device/${first.publicPageHash}`);
    const again = (await (await admin.json(publicLink(id), {})).json()).data;
    expect(again.publicPageHash).not.toBe(first.publicPageHash);
    const anyone = browser(ctx.app, ORIGIN);
    expect((await anyone.get(publicDetails(DEMO.raDeviceHash))).status).toBe(404);
    expect((await anyone.get(publicDetails(first.publicPageHash))).status).toBe(404);
    expect((await anyone.get(publicDetails(again.publicPageHash))).status).toBe(200);
    const deleted = await admin.delete(publicLink(id));
    expect((await deleted.json()).data).toEqual({ publicLink: null, publicPageHash: null });
    expect((await anyone.get(publicDetails(again.publicPageHash))).status).toBe(404);
  });

  it("gives a device whose type does not begin with RA a /public/device link", async () => {
    const manager = await signedIn(ctx, "manager@example.com");
    const res = await manager.json(publicLink(await deviceId(ctx.database.db, "Freezer Monitor")), {});
    const { publicLink: path, publicPageHash } = (await res.json()).data;
    expect(path).toBe(`/public/device/${publicPageHash}`);
  });

  it("is refused to a Viewer, for another subscription's device, and without the plan's public URL feature", async () => {
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const viewer = await signedIn(ctx, "viewer@example.com");
    const refused = await viewer.json(publicLink(id), {});
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(FORBIDDEN);
    const other = await signedIn(ctx, "owner@northwind.example.com");
    expect(await (await other.json(publicLink(id), {})).json()).toEqual(NOT_FOUND);
    expect(await (await other.delete(publicLink(id))).json()).toEqual(NOT_FOUND);
    await setFeature(ctx.database.db, "Acme", "publicUrl", false);
    const admin = await signedIn(ctx, "admin@example.com");
    const res = await admin.json(publicLink(id), {});
    expect(res.status).toBe(403);
    expect((await res.json()).data[0].message).toBe(
      "Public device links are not included in your subscription plan.",
    );
  });
});

describe("renaming a device", () => {
  const ctx = useTestApp({ seeded: true });

  it("saves the trimmed name for an Administrator", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const res = await admin.json(rename(id), { name: "  Lab 204 Base  " }, "PATCH");
    expect(await res.json()).toEqual({ success: true, data: { id, name: "Lab 204 Base" } });
    const [row] = await rowsOf<{ name: string }>(
      ctx.database.db,
      sql`select name from devices where id = ${id}`,
    );
    expect(row!.name).toBe("Lab 204 Base");
  });

  it("is refused to a Viewer with 403 and nothing changes", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const res = await viewer.json(rename(id), { name: "Mine now" }, "PATCH");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(FORBIDDEN);
    expect(await deviceId(ctx.database.db, "Lab Base Station")).toBe(id);
  });

  it("refuses empty, blank, overlong and non-text names with the rule on the name field", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    for (const name of ["", "   ", "x".repeat(101), 42, null]) {
      const res = await admin.json(rename(id), { name }, "PATCH");
      expect.soft(res.status, String(name)).toBe(400);
      expect.soft((await res.json()).data[0]).toEqual({
        field: "name",
        message: "Device name must be between 1 and 100 characters long.",
      });
    }
    expect((await admin.json(rename(id), { name: "x".repeat(100) }, "PATCH")).status).toBe(200);
  });

  it("answers another subscription's device like a missing one", async () => {
    const other = await signedIn(ctx, "owner@northwind.example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const foreign = await other.json(rename(id), { name: "Taken" }, "PATCH");
    const missing = await other.json(rename(NO_SUCH_ID), { name: "Taken" }, "PATCH");
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
  });
});
