import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { DEMO_EVENTS, DOOR_CHANNEL, fillHistory, SILENT_CHANNEL } from "../../server/seed/history.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import type { PublicReport, ReportData, ReportDataWire } from "../../src/api/reports.ts";
import { unpackSeries } from "../../src/domain/chartPoints.ts";
import { OUTSIDE_WINDOW, START_BEFORE_END } from "../../src/domain/reportWindow.ts";
import { openTestDatabase, TEST_NOW, testConfig } from "./helpers.ts";

const NOW = TEST_NOW.getTime() / 1000;
const HOUR = 3600;
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const meta = (hash: string, query = "") => `/api/v1/device-data/public/report/${hash}${query}`;
const data = (hash: string, query = "") => `/api/v1/device-data/public/report/data/${hash}${query}`;

describe("public report", () => {
  // One seeded database for the file: two days of minute samples with the demo's recent
  // events, rolled up as a start does. Tests that change rows put them back.
  const ctx = {} as {
    database: Awaited<ReturnType<typeof openTestDatabase>>;
    app: ReturnType<typeof buildApp>;
  };
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    ctx.app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW });
    await seedDemo(ctx.database.db, { now: TEST_NOW, sampleDays: 2 });
    await fillHistory(ctx.database.db, { now: TEST_NOW, sampleDays: 2 });
  });
  afterAll(async () => {
    await ctx.database?.drop();
  });
  const db = () => ctx.database.db;
  const get = (path: string) => ctx.app.request(`http://localhost${path}`);
  const json = async <T>(path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return ((await res.json()) as { data: T }).data;
  };
  /** A chart data answer with its series' points as pairs again, as the page reads it. */
  const chartOf = async (path: string): Promise<ReportData> => {
    const wire = await json<ReportDataWire>(path);
    return { ...wire, series: wire.series.map(unpackSeries) };
  };

  it("answers a shared report's metadata: name, window, devices, named channels with colours, thresholds", async () => {
    const report = await json<PublicReport>(meta(DEMO.reportHash));
    expect(report.reportDetails).toEqual({
      name: "Lab Climate — Last 24 Hours",
      timeInterval: 86_400,
      startDate: null,
      endDate: null,
    });
    expect(report.window).toEqual({ start: NOW - 86_400, end: NOW });
    expect(report.deviceList).toEqual([{ deviceName: "Lab Base Station", macAddress: "00:1A:2B:3C:4D:01" }]);
    expect(report.channelKeyList.map((c) => [c.channelKey, c.color, c.axis])).toEqual(
      [...REPORT_CHANNELS].sort((a, b) => a.axis - b.axis).map((c) => [c.key, c.color, c.axis]),
    );
    expect(report.channelIdList).toEqual(report.channelKeyList.map((c) => c.channelId));
    expect(report.sensorMap[DOOR_CHANNEL]).toMatchObject({
      name: "Cold Room - Temperature",
      sensorName: "Cold Room",
      kind: "temperature",
      macAddress: "00:1A:2B:3C:4D:01",
    });
    expect(report.sensorMap[DOOR_CHANNEL]!.value).toEqual(expect.any(Number));
    expect(report.thresholdRangeAssociations.map((a) => a.thresholdRange)).toEqual([
      expect.objectContaining({
        name: "Cold room too warm",
        channelKey: DOOR_CHANNEL,
        minValue: 8,
        maxValue: null,
      }),
      expect.objectContaining({
        name: "Cold room too cold",
        channelKey: DOOR_CHANNEL,
        minValue: null,
        maxValue: 1,
      }),
    ]);
  });

  it("sends the chart data and the chart image gzipped to a browser that accepts it", async () => {
    for (const path of [data(DEMO.reportHash), `/public/report-svg/${DEMO.reportHash}?width=800`]) {
      const res = await ctx.app.request(`http://localhost${path}`, {
        headers: { "accept-encoding": "gzip" },
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-encoding"), path).toBe("gzip");
      const body = Buffer.from(await res.arrayBuffer());
      expect(gunzipSync(body).length, path).toBeGreaterThan(body.length * 2);
    }
  });

  it("counts a page opening as a view of today, and its 30-second refreshes not", async () => {
    const views = async () =>
      (
        await rows<{ views: number }>(
          db(),
          sql`select coalesce(sum(v.views), 0)::int as views from report_views v
              join reports r on r.id = v.report_id where r.public_hash = ${DEMO.fixedReportHash}`,
        )
      )[0]!.views;
    const before = await views();
    await json(meta(DEMO.fixedReportHash));
    await json(meta(DEMO.fixedReportHash, "?refresh=1"));
    await json(meta(DEMO.fixedReportHash, "?refresh=1"));
    // Views are written in batches within a second of being counted.
    await expect.poll(views, { timeout: 3000 }).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await views()).toBe(before + 1);
  });

  it("answers the same 404 for a malformed, unknown, deleted or regenerated hash, never a 500", async () => {
    const regenerated = "R".repeat(24);
    await db().execute(
      sql`update reports set public_hash = ${regenerated} where public_hash = ${DEMO.fixedReportHash}`,
    );
    await db().execute(sql`update reports set public_hash = null where public_hash = ${DEMO.reportHash}`);
    try {
      const hashes = [
        DEMO.fixedReportHash,
        DEMO.reportHash,
        "short",
        "x".repeat(200),
        "a%2F..%2F..",
        "' or 1=1 --",
        "ÄÖÜ".repeat(8),
      ];
      for (const hash of hashes)
        for (const path of [meta(hash), data(hash), data(hash, "?start=abc")]) {
          const res = await get(path);
          expect(res.status, path).toBe(404);
          expect(await res.json()).toEqual(NOT_FOUND);
        }
      expect((await get(meta(regenerated))).status).toBe(200);
      expect((await get(meta("%00"))).status).toBe(400);
    } finally {
      await db().execute(
        sql`update reports set public_hash = ${DEMO.fixedReportHash} where public_hash = ${regenerated}`,
      );
      await db().execute(
        sql`update reports set public_hash = ${DEMO.reportHash} where name like '%Last 24 Hours'`,
      );
    }
  });

  it("never shows another subscription's channel or threshold range put into a report", async () => {
    const [foreign] = await rows<{ id: number; key: string }>(
      db(),
      sql`select c.id, c.channel_key as key from channels c join channel_groups g on g.id = c.channel_group_id
          join sensors s on s.id = g.sensor_id join devices d on d.id = s.device_id
          join subscriptions u on u.id = d.subscription_id where u.name like 'Northwind%' limit 1`,
    );
    const [report] = await rows<{ id: number }>(
      db(),
      sql`select id from reports where public_hash = ${DEMO.reportHash}`,
    );
    await db().execute(
      sql`insert into report_channels (report_id, channel_id, color) values (${report!.id}, ${foreign!.id}, '#000')`,
    );
    await db().execute(sql`insert into threshold_ranges (subscription_id, name, channel_id, min_value, color)
      select id, 'Foreign range', ${foreign!.id}, 0, '#000' from subscriptions where name like 'Northwind%'`);
    await db().execute(sql`insert into report_thresholds (report_id, threshold_range_id)
      select ${report!.id}, id from threshold_ranges where name = 'Foreign range'`);
    try {
      const text = JSON.stringify(await json<PublicReport>(meta(DEMO.reportHash)));
      const chart = JSON.stringify(await chartOf(data(DEMO.reportHash)));
      for (const body of [text, chart]) {
        expect(body).not.toContain(foreign!.key);
        expect(body).not.toContain("Foreign range");
        expect(body).not.toContain("Northwind");
      }
    } finally {
      await db().execute(sql`delete from report_channels where channel_id = ${foreign!.id}`);
      await db().execute(sql`delete from threshold_ranges where name = 'Foreign range'`);
    }
  });

  it("answers a report without channels with empty lists, for the page's 'No sensor channels currently available.'", async () => {
    const hash = "empty-report-hash-0123456789";
    await db().execute(sql`insert into reports (subscription_id, name, public_hash, time_interval)
      select id, 'Empty', ${hash}, 3600 from subscriptions where name like 'Acme%'`);
    try {
      const report = await json<PublicReport>(meta(hash));
      expect(report).toMatchObject({ sensorMap: {}, deviceList: [], channelKeyList: [], channelIdList: [] });
      expect(report.thresholdRangeAssociations).toEqual([]);
      expect(await chartOf(data(hash))).toEqual({ start: NOW - 3600, end: NOW, series: [] });
    } finally {
      await db().execute(sql`delete from reports where public_hash = ${hash}`);
    }
  });

  it("serves the rolling day by default as raw readings, one series per channel", async () => {
    const chart = await chartOf(data(DEMO.reportHash));
    expect([chart.start, chart.end]).toEqual([NOW - 86_400, NOW]);
    expect(chart.series.map((s) => s.channelKey).sort()).toEqual(REPORT_CHANNELS.map((c) => c.key).sort());
    for (const s of chart.series) {
      expect(s.bucketSeconds).toBe(0);
      expect(s.points.length).toBeGreaterThan(1300);
      expect(s.points.length).toBeLessThanOrEqual(3000);
      expect(s.points[0]![0]).toBeGreaterThanOrEqual(NOW - 86_400);
      expect(s.points.at(-1)![0]).toBeLessThanOrEqual(NOW);
      expect(s.stats).toEqual(expect.objectContaining({ count: expect.any(Number) }));
    }
  });

  it("starts the window no earlier than the owner's plan keeps data, in the metadata, chart and CSV", async () => {
    const plan = (limits: string) =>
      db().execute(
        sql`update subscriptions set limits = limits || ${limits}::jsonb
            where id = (select subscription_id from reports where public_hash = ${DEMO.reportHash})`,
      );
    const [before] = await rows<{ limits: object }>(
      db(),
      sql`select s.limits from subscriptions s join reports r on r.subscription_id = s.id
          where r.public_hash = ${DEMO.reportHash}`,
    );
    await plan(JSON.stringify({ dataAgeLimitUnit: "DAY", dataAgeLimitValue: 1 }));
    await db().execute(
      sql`update reports set time_interval = ${2 * 86_400} where public_hash = ${DEMO.reportHash}`,
    );
    try {
      expect((await json<PublicReport>(meta(DEMO.reportHash))).window).toEqual({
        start: NOW - 86_400,
        end: NOW,
      });
      const chart = await chartOf(data(DEMO.reportHash));
      expect([chart.start, chart.end]).toEqual([NOW - 86_400, NOW]);
      expect(chart.series.every((s) => s.points.every(([t]) => t >= NOW - 86_400))).toBe(true);
      // Older than the plan shows: the empty window at the plan's edge, not an error.
      const asked = await chartOf(
        data(DEMO.reportHash, `?start=${NOW - 2 * 86_400}&end=${NOW - 86_400 - HOUR}`),
      );
      expect([asked.start, asked.end]).toEqual([NOW - 86_400, NOW - 86_400]);
      expect(asked.series.every((s) => s.points.every(([t]) => t >= NOW - 86_400))).toBe(true);
    } finally {
      await db().execute(
        sql`update reports set time_interval = 86400 where public_hash = ${DEMO.reportHash}`,
      );
      await plan(JSON.stringify(before!.limits));
    }
  });

  it("serves the fixed report's startDate to endDate", async () => {
    const report = await json<PublicReport>(meta(DEMO.fixedReportHash));
    const chart = await chartOf(data(DEMO.fixedReportHash));
    expect([chart.start, chart.end]).toEqual([report.reportDetails.startDate, report.reportDetails.endDate]);
    expect(report.window).toEqual({ start: chart.start, end: chart.end });
  });

  it("shows a gap, not a line, where the incubator's sensor was silent", async () => {
    const chart = await chartOf(data(DEMO.reportHash));
    const silent = chart.series.find((s) => s.channelKey === SILENT_CHANNEL)!;
    const gaps = silent.points.filter((p) => p[1] === null);
    const [off] = DEMO_EVENTS.offline;
    expect(gaps).toHaveLength(1);
    expect(gaps[0]![0]).toBeGreaterThan(NOW + off.from / 1000);
    expect(gaps[0]![0]).toBeLessThan(NOW + off.to / 1000);
    const inside = silent.points.filter(
      (p) => p[0] > NOW + off.from / 1000 + 60 && p[0] < NOW + off.to / 1000,
    );
    expect(inside).toEqual([gaps[0]]);
    for (const other of chart.series.filter((s) => s.channelKey !== SILENT_CHANNEL))
      expect(other.points.some((p) => p[1] === null)).toBe(false);
  });

  it("lists the cold room's open door as an excursion into 'too warm' with its worst value", async () => {
    const chart = await chartOf(data(DEMO.reportHash));
    const report = await json<PublicReport>(meta(DEMO.reportHash));
    const warm = report.thresholdRangeAssociations.find(
      (a) => a.thresholdRange.name === "Cold room too warm",
    )!;
    const cold = chart.series.find((s) => s.channelKey === DOOR_CHANNEL)!;
    const [door] = DEMO_EVENTS.doorOpen;
    expect(cold.excursionPrecision).toBe(0);
    expect(cold.excursions).toHaveLength(1);
    const e = cold.excursions[0]!;
    expect(e.thresholdRangeId).toBe(warm.thresholdRange.id);
    expect(e.start).toBeGreaterThan(NOW + door.from / 1000);
    expect(e.end).toBeLessThan(NOW + door.to / 1000);
    expect(e.duration).toBe(e.end - e.start);
    expect(e.worst).toBeGreaterThanOrEqual(8);
    expect(e.worst).toBe(cold.stats!.max);
    expect(cold.points).toContainEqual([e.worstAt, e.worst]);
    expect(cold.secondsOutside).toBe(e.duration);
    for (const other of chart.series.filter((s) => s.channelKey !== DOOR_CHANNEL)) {
      expect(other.excursions).toEqual([]);
      expect(other.secondsOutside).toBe(0);
    }
  });

  it("serves a zoom inside the window and clips a range reaching past it", async () => {
    const zoom = await chartOf(data(DEMO.reportHash, `?start=${NOW - 2 * HOUR}&end=${NOW - HOUR}`));
    expect([zoom.start, zoom.end]).toEqual([NOW - 2 * HOUR, NOW - HOUR]);
    for (const s of zoom.series) {
      expect(s.points.length).toBe(61);
      expect(s.points.every((p) => p[0] >= NOW - 2 * HOUR && p[0] <= NOW - HOUR)).toBe(true);
    }
    const wide = await chartOf(data(DEMO.reportHash, `?start=${NOW - 100 * HOUR}&end=${NOW + 100 * HOUR}`));
    expect([wide.start, wide.end]).toEqual([NOW - 86_400, NOW]);
    const fromOnly = await chartOf(data(DEMO.reportHash, `?start=${NOW - HOUR}`));
    expect([fromOnly.start, fromOnly.end]).toEqual([NOW - HOUR, NOW]);
    const older = await chartOf(data(DEMO.reportHash, `?start=${NOW - 90 * HOUR}&end=${NOW - 80 * HOUR}`));
    expect([older.start, older.end]).toEqual([NOW - 86_400, NOW - 86_400]);
  });

  it.each([
    ["start after end", `?start=${NOW - 10}&end=${NOW - 20}`, START_BEFORE_END],
    ["a range after the window", `?start=${NOW + 80 * HOUR}&end=${NOW + 90 * HOUR}`, OUTSIDE_WINDOW],
    ["start that is not epoch seconds", "?start=yesterday", "start must be epoch seconds."],
    ["end that is a decimal", "?end=1.5", "end must be epoch seconds."],
    ["end beyond int4", "?end=99999999999", "end must be epoch seconds."],
  ])("refuses %s with a clear 400", async (_, query, message) => {
    const res = await get(data(DEMO.reportHash, query));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { data: { message: string }[] };
    expect(body.data[0]!.message).toBe(message);
  });
});
