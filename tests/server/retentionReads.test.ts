import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { inTransaction } from "../../server/db/client.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { unpackSeries } from "../../src/domain/chartPoints.ts";
import type { ReportDataWire } from "../../src/api/reports.ts";
import { addSamples, deviceId, signedIn } from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Reads held to the owner's plan: with Acme on a one-year plan, every read asked for two years
 * (the explore chart, the device CSV, the shared report's metadata, chart data, compliance
 * figures and CSV) answers from one calendar year back, says that window, and never shows an
 * older reading, though older readings are still stored (another plan may keep them).
 */

const NOW = TEST_NOW.getTime() / 1000;
/** One calendar year before 2026-11-22T12:00:00Z. */
const ONE_YEAR_BACK = Date.parse("2025-11-22T12:00:00Z") / 1000;
const TWO_YEARS = 730 * 86_400;
const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, "Z");

describe("reads held to a one-year plan", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const get = (path: string) => ctx.app.request(`http://localhost${path}`);

  /** Acme on a one-year plan, its report over two years, and readings on both sides of the edge. */
  async function oneYearPlan() {
    await db().execute(
      sql`update subscriptions set limits = limits || '{"dataAgeLimitUnit": "YEAR", "dataAgeLimitValue": 1}'::jsonb
          where id = (select subscription_id from reports where public_hash = ${DEMO.reportHash})`,
    );
    await db().execute(
      sql`update reports set time_interval = ${TWO_YEARS} where public_hash = ${DEMO.reportHash}`,
    );
    const [channel] = await rows<{ id: number; key: string }>(
      db(),
      sql`select c.id, c.channel_key as key from report_channels rc join reports r on r.id = rc.report_id
          join channels c on c.id = rc.channel_id where r.public_hash = ${DEMO.reportHash} order by c.id limit 1`,
    );
    const old = [NOW - 540 * 86_400, ONE_YEAR_BACK - 60];
    const kept = [ONE_YEAR_BACK + 60, NOW - 7200];
    await addSamples(db(), channel!.id, [
      [old[0]!, -40],
      [old[1]!, -39],
      [kept[0]!, 50],
      [kept[1]!, 51],
    ]);
    await inTransaction(db(), (tx) => rollUpRange(tx, [channel!.id], NOW - TWO_YEARS, NOW));
    const [stored] = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from samples where channel_id = ${channel!.id} and time < to_timestamp(${ONE_YEAR_BACK})`,
    );
    expect(stored!.n).toBeGreaterThanOrEqual(2);
    return { ...channel!, kept };
  }

  it("answers the explore chart asked two years back with one year, and no older reading", async () => {
    const channel = await oneYearPlan();
    const viewer = await signedIn(ctx, "viewer@example.com");
    const res = await viewer.get(
      `/api/v1/device-data/channel-history/${encodeURIComponent(channel.key)}?start=${NOW - TWO_YEARS}&end=${NOW}`,
    );
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect([data.start, data.end]).toEqual([ONE_YEAR_BACK, NOW]);
    const times = data.points.map((p: [number, number]) => p[0]);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(ONE_YEAR_BACK);
    expect(times).toContain(channel.kept[0]);
    expect(data.points.map((p: [number, number]) => p[1])).not.toContain(-39);
  });

  it("downloads the device CSV asked two years back from one year back, named so", async () => {
    await oneYearPlan();
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const query = new URLSearchParams({ startTime: iso(NOW - TWO_YEARS), endTime: iso(NOW) });
    const res = await viewer.get(`/devices/data/download-device-data-by-date-range/${id}?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("2025-11-22 to 2026-11-22.csv");
    const lines = (await res.text()).split("\r\n").slice(1).filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    // Rows start with the time; the oldest kept is the edge's reading, a minute after it.
    const first = lines.map((l) => l.slice(0, 19)).sort()[0]!;
    expect(first >= "2025-11-22 12:00:00").toBe(true);
  });

  it("shows the shared report's window, chart, figures and CSV from one year back", async () => {
    const channel = await oneYearPlan();
    const meta = await (await get(`/api/v1/device-data/public/report/${DEMO.reportHash}`)).json();
    expect(meta.data.window).toEqual({ start: ONE_YEAR_BACK, end: NOW });
    for (const query of ["", `?start=${NOW - TWO_YEARS}&end=${NOW}`]) {
      const res = await get(`/api/v1/device-data/public/report/data/${DEMO.reportHash}${query}`);
      const wire = ((await res.json()) as { data: ReportDataWire }).data;
      expect([wire.start, wire.end], query).toEqual([ONE_YEAR_BACK, NOW]);
      const series = wire.series.map(unpackSeries).find((s) => s.channelId === channel.id)!;
      expect(series.points.every(([t]) => t >= ONE_YEAR_BACK)).toBe(true);
      expect(series.stats?.min).not.toBeLessThan(-30);
    }
    const figures = await (
      await get(`/api/v1/device-data/public/report/compliance/${DEMO.reportHash}?start=${NOW - TWO_YEARS}`)
    ).json();
    expect([figures.data.start, figures.data.end]).toEqual([ONE_YEAR_BACK, NOW]);
    const [visible] = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from samples where channel_id = ${channel.id}
          and time >= to_timestamp(${ONE_YEAR_BACK}) and time <= to_timestamp(${NOW})`,
    );
    const own = figures.data.channels.find((c: { channelId: number }) => c.channelId === channel.id);
    expect(own.readings).toBe(visible!.n);
    const csv = await get(
      `/api/v1/device-data/public/samples/csv?publicHash=${DEMO.reportHash}&startTime=${NOW - TWO_YEARS}&timeZone=UTC&temperatureScale=C`,
    );
    expect(csv.status).toBe(200);
    const body = await csv.text();
    expect(body).not.toContain("-39");
    expect(body).not.toContain("-40");
    expect(body).toContain("2025-11-22T12:01:00");
  });
});
