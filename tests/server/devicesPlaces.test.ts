import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rollUpRange } from "../../server/data/rollups.ts";
import { LOCATION_REQUIRED } from "../../src/domain/location.ts";
import {
  COLD_ROOM,
  FORBIDDEN,
  NO_SUCH_ID,
  NOT_FOUND,
  ORIGIN,
  addSamples,
  channelId,
  deviceId,
  multipart,
  signedIn,
} from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import { rowsOf } from "./ownership.ts";

const LOCATION = "/devices/data/change-device-location";
const nowS = TEST_NOW.getTime() / 1000;
const history = (key: string, query = "") =>
  `/api/v1/device-data/channel-history/${encodeURIComponent(key)}${query}`;

describe("the device list", () => {
  const ctx = useTestApp({ seeded: true });

  it("lists the active subscription's devices by name with tags, location and a status from the last push", async () => {
    const db = ctx.database.db;
    await db.execute(
      sql`update devices set last_message_at = ${new Date(TEST_NOW.getTime() - 1200_000)} where name = 'Warehouse RAMAX'`,
    );
    await db.execute(sql`update devices set last_message_at = null where name = 'Freezer Monitor'`);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const { deviceList } = (await (await viewer.get("/api/v1/devices")).json()).data;
    expect(deviceList.map((d: { name: string }) => d.name)).toEqual([
      "Freezer Monitor",
      "Lab Base Station",
      "Warehouse RAMAX",
    ]);
    expect(deviceList[1]).toMatchObject({
      type: "RA12",
      location: "Building 2, Lab 204",
      tagList: [{ name: "Critical" }, { name: "Lab" }],
      lastMessageTimestamp: nowS - 240,
      status: "pushing",
    });
    expect(deviceList[2].status).toBe("late");
    expect(deviceList[0].status).toBe("offline");
  });
});

describe("a link's page", () => {
  const ctx = useTestApp({ seeded: true });

  it("names the link and lists the devices connected through it; another subscription's link is a 404", async () => {
    const db = ctx.database.db;
    const [lab] = await rowsOf<{ id: number }>(db, sql`select id from links where name = 'Lab Network Link'`);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const { link, deviceList } = (await (await viewer.get(`/api/v1/links/${lab!.id}`)).json()).data;
    expect(link).toEqual({ id: lab!.id, name: "Lab Network Link" });
    expect(deviceList.map((d: { name: string }) => d.name)).toEqual(["Lab Base Station"]);
    const other = await signedIn(ctx, "owner@northwind.example.com");
    expect(await (await other.get(`/api/v1/links/${lab!.id}`)).json()).toEqual(NOT_FOUND);
    expect(await (await other.get(`/api/v1/links/${NO_SUCH_ID}`)).json()).toEqual(NOT_FOUND);
  });
});

describe("a channel's history", () => {
  const ctx = useTestApp({ seeded: true });

  it("gives the raw points of the last 24 hours by default, adjusted", async () => {
    const db = ctx.database.db;
    const id = await channelId(db, `${COLD_ROOM}_1`);
    await addSamples(db, id, [
      [nowS - 90_000, 1],
      [nowS - 3600, 4.25],
      [nowS - 60, 4.5],
    ]);
    await db.execute(sql`update channels set adjust = 0.5 where id = ${id}`);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const res = await viewer.get(history(`${COLD_ROOM}_1`));
    const data = (await res.json()).data;
    expect(data).toMatchObject({
      channel: { name: "Cold Room - Temperature", kind: "temperature" },
      deviceName: "Lab Base Station",
      start: nowS - 86400,
      end: nowS,
      bucketSeconds: 0,
    });
    expect(data.points).toContainEqual([nowS - 3600, 4.75]);
    expect(data.points).toContainEqual([nowS - 60, 5]);
    expect(data.points.every((p: [number, number]) => p[0] >= nowS - 86400)).toBe(true);
  });

  it("downsamples to at most 3000 points, keeping each bucket's minimum and maximum", async () => {
    const db = ctx.database.db;
    const id = await channelId(db, `${COLD_ROOM}_1`);
    const start = nowS - 7 * 86400;
    const points: [number, number][] = [];
    for (let t = start; t < nowS; t += 60) points.push([t, 5]);
    points[5000] = [points[5000]![0], 40];
    points[7000] = [points[7000]![0], -30];
    await addSamples(db, id, points);
    // Written in bulk, not pushed: roll them up as the demo history does.
    await rollUpRange(db, [id], start, nowS);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const data = (await (await viewer.get(history(`${COLD_ROOM}_1`, `?start=${start}&end=${nowS}`))).json())
      .data;
    expect(data.points.length).toBeLessThanOrEqual(3000);
    expect(data.bucketSeconds).toBeGreaterThan(0);
    const values = data.points.map((p: [number, number]) => p[1]);
    expect(Math.max(...values)).toBe(40);
    expect(Math.min(...values)).toBe(-30);
    expect(data.points).toContainEqual(points[5000]);
  });

  it("refuses a start after the end (400) and another subscription's channel (404), and holds a range older than the plan keeps to its edge", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const backwards = await viewer.get(history(`${COLD_ROOM}_1`, `?start=${nowS}&end=${nowS - 10}`));
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).data[0].message).toBe("The start time must be before the end time.");
    const ancient = await viewer.get(history(`${COLD_ROOM}_1`, `?start=1000&end=2000`));
    expect(ancient.status).toBe(200);
    const twoYearsBack = Date.parse("2024-11-22T12:00:00Z") / 1000;
    expect(new Date(nowS * 1000).toISOString()).toBe("2026-11-22T12:00:00.000Z");
    expect((await ancient.json()).data).toMatchObject({ start: twoYearsBack, end: twoYearsBack, points: [] });
    for (const query of ["?start=abc", "?end=-5", "?start=99999999999"])
      expect.soft((await viewer.get(history(`${COLD_ROOM}_1`, query))).status, query).toBe(400);
    const other = await signedIn(ctx, "owner@northwind.example.com");
    expect(await (await other.get(history(`${COLD_ROOM}_1`))).json()).toEqual(NOT_FOUND);
    expect(await (await other.get(history(`${COLD_ROOM}_9`))).json()).toEqual(NOT_FOUND);
  });
});

describe("the location form", () => {
  const ctx = useTestApp({ seeded: true });
  const send = async (b: Awaited<ReturnType<typeof signedIn>>, fields: Record<string, string>) => {
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const init = multipart(fields);
    const res = await ctx.app.request(`${ORIGIN}${LOCATION}`, {
      ...init,
      headers: { origin: ORIGIN, cookie },
    });
    return { status: res.status, body: await res.json() };
  };

  it("saves trimmed text from a multipart form and coordinates from a plain form", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = String(await deviceId(ctx.database.db, "Lab Base Station"));
    const text = await send(admin, { id, location: "  Building 3  " });
    expect(text.body.data).toEqual({
      id: Number(id),
      location: "Building 3",
      geocode: { lat: 42.3601, lng: -71.0589 },
    });
    const coords = await admin.form(LOCATION, { id, location: "", lat: "51.5", lng: "-0.12" });
    expect((await coords.json()).data).toEqual({
      id: Number(id),
      location: "Building 3",
      geocode: { lat: 51.5, lng: -0.12 },
    });
  });

  it("asks for text or both coordinates with the spec's message and field", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = String(await deviceId(ctx.database.db, "Lab Base Station"));
    for (const fields of [{ id }, { id, location: "   " }, { id, location: "", lat: "", lng: "" }]) {
      const res = await send(admin, fields);
      expect.soft(res.status).toBe(400);
      expect.soft(res.body.data).toEqual([{ field: "location", message: LOCATION_REQUIRED }]);
    }
    const half = await send(admin, { id, lat: "10" });
    expect(half.body.data).toEqual([{ field: "lng", message: "Enter both latitude and longitude." }]);
    for (const [field, value] of [
      ["lat", "91"],
      ["lng", "-180.5"],
      ["lat", "1e3"],
      ["lat", "abc"],
      ["location", "x".repeat(201)],
      ["id", "0"],
      ["id", "abc"],
    ] as const) {
      const res = await send(admin, { id, lat: "1", lng: "1", [field]: value });
      expect.soft(res.status, `${field}=${value}`).toBe(400);
      expect.soft(res.body.data[0].field, `${field}=${value}`).toBe(field);
    }
  });

  it("refuses a form larger than the API's body limit with 413", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = String(await deviceId(ctx.database.db, "Lab Base Station"));
    const res = await send(admin, { id, location: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it("refuses a Viewer (403) and answers another subscription's device like a missing one", async () => {
    const id = String(await deviceId(ctx.database.db, "Lab Base Station"));
    const viewer = await signedIn(ctx, "viewer@example.com");
    const refused = await send(viewer, { id, location: "Mine" });
    expect(refused.status).toBe(403);
    expect(refused.body.data[0].message).toBe(FORBIDDEN);
    const other = await signedIn(ctx, "owner@northwind.example.com");
    const foreign = await send(other, { id, location: "Mine" });
    const missing = await send(other, { id: String(NO_SUCH_ID), location: "Mine" });
    expect(foreign).toEqual({ status: 404, body: NOT_FOUND });
    expect(missing).toEqual(foreign);
  });
});
