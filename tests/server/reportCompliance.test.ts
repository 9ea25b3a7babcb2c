import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import {
  channels,
  reportChannels,
  reportThresholds,
  reports,
  samples,
  thresholdRanges,
} from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { openTestDatabase, TEST_NOW, testConfig } from "./helpers.ts";
import { pdfText } from "../support/pdfText.ts";
import type { ReportCompliance } from "../../src/api/reportCompliance.ts";

// The audit PDF's compliance figures against a reference computed here straight from the
// textbook formula over the fixture readings, and its data hash against the CSV download.

/** Tk = (ΔH/R) / −ln(Σ e^(−ΔH/(R·Ti)) / n), R = 8.3144 J/(mol·K), in °C. */
function textbookMkt(celsius: readonly number[], kjPerMol: number): number {
  const dhOverR = (kjPerMol * 1000) / 8.3144;
  const mean = celsius.reduce((s, c) => s + Math.exp(-dhOverR / (c + 273.15)), 0) / celsius.length;
  return dhOverR / -Math.log(mean) - 273.15;
}

const START = Date.parse("2026-03-12T00:00:00Z") / 1000;
const MINUTES = 360;
/** Six hours of minutes: a slow sine around 4 °C and a 20-minute spike to 12 °C (an open door). */
const fixture = Array.from({ length: MINUTES }, (_, m) =>
  m >= 200 && m < 220 ? 12 : Math.round((4 + 3 * Math.sin(m / 30)) * 100) / 100,
);

describe("report compliance figures and data hash", () => {
  const ctx = {} as {
    database: Awaited<ReturnType<typeof openTestDatabase>>;
    app: ReturnType<typeof buildApp>;
    hash: string;
    reportId: number;
    adjust: number;
  };
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    const db = ctx.database.db;
    ctx.app = buildApp({ db, config: testConfig(), now: () => TEST_NOW });
    await seedDemo(db, { now: TEST_NOW, sampleDays: 1 });
    const [demo] = await db.select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
    const [channel] = await db
      .select()
      .from(channels)
      .where(eq(channels.channelKey, REPORT_CHANNELS[0]!.key));
    ctx.adjust = channel!.adjust;
    ctx.hash = "mktfixture".padEnd(24, "x");
    const [report] = await db
      .insert(reports)
      .values({
        subscriptionId: demo!.subscriptionId,
        name: "Cold chain audit",
        publicHash: ctx.hash,
        startDate: new Date(START * 1000),
        endDate: new Date((START + MINUTES * 60 - 60) * 1000),
      })
      .returning();
    ctx.reportId = report!.id;
    await db
      .insert(reportChannels)
      .values({ reportId: report!.id, channelId: channel!.id, color: "#1e88e5" });
    const [range] = await db
      .insert(thresholdRanges)
      .values({
        subscriptionId: demo!.subscriptionId,
        name: "Too warm",
        channelId: channel!.id,
        minValue: 8,
        maxValue: null,
        color: "#e53935",
      })
      .returning();
    await db.insert(reportThresholds).values({ reportId: report!.id, thresholdRangeId: range!.id });
    await db.insert(samples).values(
      fixture.map((value, m) => ({
        channelId: channel!.id,
        time: new Date((START + m * 60) * 1000),
        value,
      })),
    );
  });
  afterAll(async () => {
    await ctx.database?.drop();
  });

  const pdfOf = async (query: Record<string, string>) => {
    const res = await ctx.app.request(
      `http://localhost/public/report-pdf/?${new URLSearchParams({ reportPublicLinkHash: ctx.hash, ...query })}`,
    );
    expect(res.status).toBe(200);
    return pdfText(Buffer.from(await res.arrayBuffer()));
  };
  const mktIn = (text: string) => Number(/Mean kinetic temperature: (-?[\d.]+) °C/.exec(text)?.[1]);
  const adjusted = () => fixture.map((v) => v + ctx.adjust);

  it("prints the mean kinetic temperature within 0.01 °C of the textbook formula", async () => {
    const text = await pdfOf({ tempScale: "C", timezone: "UTC" });
    expect(text).toContain("Compliance");
    expect(text).toContain("activation energy of 83.144 kJ/mol");
    expect(Math.abs(mktIn(text) - textbookMkt(adjusted(), 83.144))).toBeLessThanOrEqual(0.01);
  });

  it("follows the report's own activation energy", async () => {
    await ctx.database.db
      .update(reports)
      .set({ mktActivationEnergy: 150 })
      .where(eq(reports.id, ctx.reportId));
    try {
      const text = await pdfOf({ tempScale: "C", timezone: "UTC" });
      expect(Math.abs(mktIn(text) - textbookMkt(adjusted(), 150))).toBeLessThanOrEqual(0.01);
      expect(mktIn(text)).toBeGreaterThan(textbookMkt(adjusted(), 83.144) + 0.05);
    } finally {
      await ctx.database.db
        .update(reports)
        .set({ mktActivationEnergy: 83.144 })
        .where(eq(reports.id, ctx.reportId));
    }
  });

  it("gives the extremes with their times, the time in range and the one excursion", async () => {
    const text = (await pdfOf({ tempScale: "C", timezone: "UTC" })).replaceAll("\n", " ");
    const high = Math.max(...adjusted());
    expect(text).toContain(`Maximum ${high} °C at Mar 12, 2026 3:20 AM`);
    expect(text).toContain("Time in Too warm: 20 min (5.56 %), 1 excursion");
    expect(text).toContain(
      "Excursions: 1, the longest 20 min in Too warm from Mar 12, 2026 3:20 AM to Mar 12, 2026 3:40 AM",
    );
  });

  it.each([
    ["F", "America/New_York", {}],
    ["C", "UTC", { start: START + 3600, end: START + 4 * 3600 }],
  ])("prints the SHA-256 of the CSV download of the same window (%s, %s)", async (scale, zone, part) => {
    const w = part as { start?: number; end?: number };
    const csvQuery = new URLSearchParams({ publicHash: ctx.hash, temperatureScale: scale, timeZone: zone });
    const pdfQuery: Record<string, string> = { tempScale: scale, timezone: zone };
    if (w.start !== undefined && w.end !== undefined) {
      csvQuery.set("startTime", String(w.start));
      csvQuery.set("endTime", String(w.end));
      pdfQuery["startTime"] = new Date(w.start * 1000).toISOString();
      pdfQuery["endTime"] = new Date(w.end * 1000).toISOString();
    }
    const csv = await ctx.app.request(`http://localhost/api/v1/device-data/public/samples/csv?${csvQuery}`);
    expect(csv.status).toBe(200);
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    const sha = createHash("sha256").update(bytes).digest("hex");
    const text = (await pdfOf(pdfQuery)).replaceAll("\n", "");
    expect(text).toContain(`Data SHA-256: ${sha}`);
  });

  it("answers the page's figures: the MKT within 0.01 °C of the textbook, extremes, time in range", async () => {
    const res = await ctx.app.request(
      `http://localhost/api/v1/device-data/public/report/compliance/${ctx.hash}`,
    );
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: ReportCompliance };
    expect(data.activationEnergy).toBe(83.144);
    const [ch] = data.channels;
    expect(Math.abs(ch!.mkt! - textbookMkt(adjusted(), 83.144))).toBeLessThan(0.01);
    expect(ch!.readings).toBe(MINUTES);
    expect(ch!.max).toEqual({ value: 12 + ctx.adjust, at: START + 200 * 60 });
    expect(ch!.ranges).toEqual([expect.objectContaining({ seconds: 20 * 60, excursions: 1 })]);
    expect(ch!.longest).toMatchObject({ start: START + 200 * 60, end: START + 220 * 60, duration: 1200 });
  });

  it("answers a bad window with a 400 and a bad link with the same 404, never a 500", async () => {
    const path = `/api/v1/device-data/public/report/compliance/${ctx.hash}`;
    expect((await ctx.app.request(`http://localhost${path}?start=abc`)).status).toBe(400);
    expect((await ctx.app.request(`http://localhost${path}?start=${START + 7200}&end=${START}`)).status).toBe(
      400,
    );
    const missing = await ctx.app.request(
      "http://localhost/api/v1/device-data/public/report/compliance/nosuchreport0000000000",
    );
    expect(missing.status).toBe(404);
  });

  it("prints a different hash for a different window", async () => {
    const whole = (await pdfOf({ tempScale: "C", timezone: "UTC" })).replaceAll("\n", "");
    const part = (
      await pdfOf({
        tempScale: "C",
        timezone: "UTC",
        startTime: new Date((START + 60) * 1000).toISOString(),
      })
    ).replaceAll("\n", "");
    const hashOf = (t: string) => /Data SHA-256: ([0-9a-f]{64})/.exec(t)?.[1];
    expect(hashOf(whole)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(part)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(part)).not.toBe(hashOf(whole));
  });
});
