import { writeFileSync } from "node:fs";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import {
  channelGroups,
  channels,
  reportChannels,
  reportThresholds,
  reports,
  samples,
  subscriptions,
  thresholdRanges,
} from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { openTestDatabase, TEST_NOW, testConfig } from "./helpers.ts";
import { pdfText } from "../support/pdfText.ts";
import { REPORT_CSV_MESSAGE } from "../../src/domain/plan.ts";

const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const BAD_HASHES = ["x", "A".repeat(22), "%00", "a".repeat(300), `${DEMO.reportHash}x`];

describe("report exports", () => {
  // One seeded database for the file (two days of minute samples with the demo's events);
  // tests that add rows use their own report and channels' times.
  const ctx = {} as {
    database: Awaited<ReturnType<typeof openTestDatabase>>;
    app: ReturnType<typeof buildApp>;
  };
  beforeAll(async () => {
    ctx.database = await openTestDatabase();
    ctx.app = buildApp({
      db: ctx.database.db,
      config: testConfig({ PUBLIC_ORIGIN: "https://portal.example.com" }),
      now: () => TEST_NOW,
    });
    await seedDemo(ctx.database.db, { now: TEST_NOW, sampleDays: 2 });
    await fillHistory(ctx.database.db, { now: TEST_NOW, sampleDays: 2 });
  });
  afterAll(async () => {
    await ctx.database?.drop();
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    ctx.app.request(`http://localhost${path}`, { headers });
  const db = () => ctx.database.db;
  const date = (iso: string) => new Date(iso);
  const epoch = (iso: string) => Date.parse(iso) / 1000;

  /**
   * A fixed report over New York's spring-forward night (07:00 UTC on 2026-03-08) with the
   * cold room's temperature and humidity, and readings at four known minutes around it.
   */
  const dstReport = async (name: string) => {
    const [demo] = await db().select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
    const ids = new Map(
      (await db().select({ id: channels.id, key: channels.channelKey }).from(channels)).map((c) => [
        c.key,
        c.id,
      ]),
    );
    const temperature = ids.get(REPORT_CHANNELS[0]!.key)!;
    const humidity = ids.get(REPORT_CHANNELS[1]!.key)!;
    const hash = `dst${Math.random().toString(36).slice(2)}`.padEnd(24, "x");
    const [report] = await db()
      .insert(reports)
      .values({
        subscriptionId: demo!.subscriptionId,
        name,
        publicHash: hash,
        startDate: date("2026-03-08T06:00:00Z"),
        endDate: date("2026-03-08T08:00:00Z"),
      })
      .returning();
    await db()
      .insert(reportChannels)
      .values([
        { reportId: report!.id, channelId: temperature, color: "#1e88e5", axis: 0 },
        { reportId: report!.id, channelId: humidity, color: "#43a047", axis: 1 },
      ]);
    await db()
      .insert(samples)
      .values([
        { channelId: temperature, time: date("2026-03-08T06:58:00Z"), value: 4 },
        { channelId: temperature, time: date("2026-03-08T06:59:00Z"), value: 8.25 },
        { channelId: humidity, time: date("2026-03-08T06:59:00Z"), value: 55.5 },
        { channelId: temperature, time: date("2026-03-08T07:00:00Z"), value: -1.5 },
        { channelId: humidity, time: date("2026-03-08T07:01:00Z"), value: 56 },
      ])
      .onConflictDoNothing();
    return { hash, temperature, humidity };
  };

  /**
   * A fixed report over six hours of 2026-03-10 with the cold room's temperature read every
   * minute but for a silent hole from 02:00 to 04:00 UTC.
   */
  const holeReport = async (name: string) => {
    const [demo] = await db().select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
    const [channel] = await db()
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.channelKey, REPORT_CHANNELS[0]!.key));
    const hash = `gap${Math.random().toString(36).slice(2)}`.padEnd(24, "x");
    const [report] = await db()
      .insert(reports)
      .values({
        subscriptionId: demo!.subscriptionId,
        name,
        publicHash: hash,
        startDate: date("2026-03-10T00:00:00Z"),
        endDate: date("2026-03-10T06:00:00Z"),
      })
      .returning();
    await db()
      .insert(reportChannels)
      .values([{ reportId: report!.id, channelId: channel!.id, color: "#1e88e5", axis: 0 }]);
    const start = epoch("2026-03-10T00:00:00Z");
    const minutes = Array.from({ length: 361 }, (_, i) => i).filter((m) => m <= 120 || m >= 240);
    await db()
      .insert(samples)
      .values(
        minutes.map((m) => ({ channelId: channel!.id, time: new Date((start + m * 60) * 1000), value: 4 })),
      )
      .onConflictDoNothing();
    return { hash };
  };

  describe("the server-rendered chart", () => {
    const svg = (hash: string, query = "") => `/public/report-svg/${encodeURIComponent(hash)}${query}`;

    it("draws the report's chart as SVG with a line per channel in its colour", async () => {
      const res = await get(svg(DEMO.reportHash, "?width=1000&height=300"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      const text = await res.text();
      expect(text.startsWith("<svg")).toBe(true);
      expect(text).toContain('viewBox="0 0 1000 300"');
      for (const ch of REPORT_CHANNELS) expect(text, ch.color).toContain(`stroke="${ch.color}"`);
      expect(text).not.toMatch(/<script/i);
    });

    /** The left axis's value at a height, from the positions of its lowest and highest labels. */
    const leftAxis = (text: string) => {
      const labels = [
        ...text.matchAll(/text-anchor="end"[^>]*translate\(40 ([\d.]+)\)"[^>]*>(-?[\d.]+)</g),
      ].map(([, y, v]) => ({ y: Number(y), v: Number(v) }));
      const [low, high] = [labels[0]!, labels.at(-1)!];
      return (y: number) => low.v + ((low.y - y) / (low.y - high.y)) * (high.v - low.v);
    };
    const dashed = (text: string) =>
      [...text.matchAll(/<path d="M48 ([\d.]+)L952 [\d.]+"[^>]*stroke="([^"]+)" stroke-dasharray/g)].map(
        ([, y, color]) => ({ y: Number(y), color }),
      );

    it("draws a range that applies to one of its axis's lines as dashed lines in that line's colour, not a band", async () => {
      // The cold room's 'too warm' (from 8 °C) and 'too cold' (to 1 °C) share the left axis
      // with the incubator, whose 37 °C is not too warm: a band would say it is.
      for (const [scale, warm, cold] of [
        ["F", 46.4, 33.8],
        ["C", 8, 1],
      ] as const) {
        const text = await (
          await get(svg(DEMO.reportHash, `?width=1000&height=300&tempScale=${scale}`))
        ).text();
        const valueAt = leftAxis(text);
        const edges = dashed(text);
        expect(edges.map((e) => e.color)).toEqual([REPORT_CHANNELS[0]!.color, REPORT_CHANNELS[0]!.color]);
        const values = edges.map((e) => valueAt(e.y)).sort((a, b) => b - a);
        expect(values[0]!, scale).toBeCloseTo(warm, 0);
        expect(values[1]!, scale).toBeCloseTo(cold, 0);
        expect(text).toContain(">Cold room too warm<");
        expect(text).toContain(">Cold room too cold<");
        expect(text).not.toContain('fill="#ffcdd2"');
        expect(text).not.toContain('fill="#bbdefb"');
      }
    });

    it("shades a range's band where it applies to every line of its axis", async () => {
      const { hash } = await dstReport("Cold room alone on its axis");
      const [report] = await db().select().from(reports).where(eq(reports.publicHash, hash));
      const ranges = await db()
        .select({ id: thresholdRanges.id })
        .from(thresholdRanges)
        .where(inArray(thresholdRanges.name, ["Cold room too warm", "Cold room too cold"]));
      await db()
        .insert(reportThresholds)
        .values(ranges.map((r) => ({ reportId: report!.id, thresholdRangeId: r.id })));
      const text = await (await get(svg(hash, "?width=1000&height=300"))).text();
      expect(text).toContain('fill="#ffcdd2"');
      expect(text).toContain('fill="#bbdefb"');
      expect(dashed(text)).toEqual([]);
    });

    it("labels the time axis in the visitor's zone on the portal's 12-hour clock, midnight with its date", async () => {
      // Each 'h:mm AM' label sits where that time of the zone's clock falls on the axis, and a
      // date label ('Nov 22') at the zone's midnight: the grid spans x 48 to 952 (two y axes)
      // over the report's last 24 hours.
      const end = TEST_NOW.getTime() / 1000;
      const checked = async (zone: string) => {
        const text = await (
          await get(svg(DEMO.reportHash, `?width=1000&timezone=${encodeURIComponent(zone)}`))
        ).text();
        // The time axis's labels are the centred ones.
        const labels = [
          ...text.matchAll(/text-anchor="middle"[^>]*translate\(([\d.]+) [\d.]+\)"[^>]*>([^<]+)</g),
        ];
        expect(labels.length, zone).toBeGreaterThan(2);
        const times = [];
        let dates = 0;
        for (const [, x, label] of labels) {
          const at = end - 86_400 + ((Number(x) - 48) / 904) * 86_400;
          const minute = new Date(Math.round(at / 60) * 60_000);
          const parts = (o: Intl.DateTimeFormatOptions) =>
            new Intl.DateTimeFormat("en-US", { timeZone: zone, ...o }).format(minute).replace(/\s/gu, " ");
          const clock = parts({ hour: "numeric", minute: "2-digit" });
          if (/^[A-Z][a-z]{2} \d{1,2}$/.test(label!)) {
            expect(clock, `${zone} ${label}`).toMatch(/^(12:0\d AM|11:5\d PM)$/);
            expect(parts({ month: "short", day: "numeric", hour: "numeric", hour12: false })).toMatch(
              new RegExp(`^${label}, (24|00|23)$`),
            );
            dates++;
            continue;
          }
          expect(label, zone).toMatch(/^\d{1,2}:\d\d [AP]M$/);
          const toMinutes = (t: string) => {
            const [, h, m, half] = /^(\d+):(\d+) ([AP])M$/.exec(t)!;
            return ((Number(h) % 12) + (half === "P" ? 12 : 0)) * 60 + Number(m);
          };
          const minutes = (toMinutes(clock) - toMinutes(label!) + 1440) % 1440;
          expect(Math.min(minutes, 1440 - minutes), `${zone} ${label}`).toBeLessThanOrEqual(2);
          times.push(label);
        }
        // Every zone's last 24 hours hold a midnight.
        expect(dates, zone).toBe(1);
        return times;
      };
      expect(await checked("UTC")).not.toEqual(await checked("Asia/Kolkata"));
      await checked("America/New_York");
    });

    it("marks a silent stretch as a hatched 'No data' band with its times in a title", async () => {
      const { hash } = await holeReport("Silent hole SVG");
      const text = await (await get(svg(hash, "?width=1000&height=300&timezone=America/New_York"))).text();
      const marks = [
        ...text.matchAll(/<g class="no-data"><rect ([^>]*)><title>([^<]*)<\/title><\/rect>(.*?)<\/g>/g),
      ];
      expect(marks).toHaveLength(1);
      const [, rect, title, label] = marks[0]!;
      expect(title).toBe("No data from Mar 9, 2026, 10:00 PM to Mar 10, 2026, 12:00 AM");
      expect(label).toContain(">No data</text>");
      // The middle third of the plot (its grid lines' extent): 2 of the window's 6 hours.
      const right = Number(/<path d="M48 [\d.]+L([\d.]+) /.exec(text)![1]);
      const x = Number(/^x="([\d.]+)"/.exec(rect!)![1]);
      const width = Number(/ width="([\d.]+)"/.exec(rect!)![1]);
      expect(x).toBeCloseTo(48 + (right - 48) / 3, 0);
      expect(width).toBeCloseTo((right - 48) / 3, 0);
      expect(rect).toContain('fill="url(#no-data)"');
    });

    it("draws no 'No data' mark where the readings have no gap", async () => {
      const text = await (await get(svg(DEMO.reportHash, "?width=1000&height=300"))).text();
      const titles = [...text.matchAll(/<title>(No data[^<]*)<\/title>/g)].map((m) => m[1]);
      // The demo's only silence: the incubator's two hours, its other lines read throughout.
      expect(titles).toHaveLength(1);
      expect(titles[0]).toMatch(/^No data from .+ to .+ \(Incubator - Temperature\)$/);
    });

    it("draws temperatures in the chosen scale, F by default and for an unknown scale", async () => {
      const axis = async (query: string) => {
        const text = await (await get(svg(DEMO.reportHash, query))).text();
        return [...text.matchAll(/>(-?\d+(?:\.\d+)?)</g)].map((m) => Number(m[1]));
      };
      const c = await axis("?tempScale=C");
      const f = await axis("?tempScale=F");
      expect(await axis("")).toEqual(f);
      expect(await axis("?tempScale=kelvin&timezone=Not/AZone")).toEqual(f);
      // The cold room sits around 4 °C, about 39 °F: the left axis's labels move with the scale.
      expect(Math.max(...c)).toBeLessThan(Math.max(...f));
    });

    it("titles each y axis with the units of its lines, the temperature axis in the chosen scale", async () => {
      const titles = async (query: string) => {
        const text = await (await get(svg(DEMO.reportHash, query))).text();
        return [...text.matchAll(/>(°[CF]|%)</g)].map((m) => m[1]);
      };
      // Temperatures on the left, the cold room's humidity on the right (the demo report's axes).
      expect(await titles("?tempScale=F")).toEqual(["°F", "%"]);
      expect(await titles("?tempScale=C")).toEqual(["°C", "%"]);
    });

    it("rounds the size to its step and holds it to the limits", async () => {
      const box = async (query: string) =>
        (await (await get(svg(DEMO.reportHash, query))).text()).match(/viewBox="([^"]+)"/)![1];
      expect(await box("?width=1001&height=301")).toBe("0 0 1040 320");
      expect(await box("?width=5&height=99999")).toBe("0 0 240 2160");
      expect(await box("")).toBe("0 0 960 300");
    });

    it("answers the same 404 for every bad link and a 400 for a malformed size, never a 500", async () => {
      for (const hash of BAD_HASHES) {
        const res = await get(svg(hash, "?width=abc"));
        expect(res.status, hash).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
      for (const query of ["?width=abc", "?height=-1", "?width=1e9", "?timezone=" + "x".repeat(100)]) {
        const res = await get(svg(DEMO.reportHash, query));
        expect(res.status, query).toBe(400);
      }
    });

    it("draws a picture once for identical requests that arrive together", async () => {
      const query = "?width=777&timezone=Europe/Paris&tempScale=C";
      const answers = await Promise.all([1, 2, 3, 4].map(() => get(svg(DEMO.fixedReportHash, query))));
      const texts = await Promise.all(answers.map((r) => r.text()));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(texts).size).toBe(1);
    });
  });

  describe("the CSV download", () => {
    const csv = (query: Record<string, string>) =>
      `/api/v1/device-data/public/samples/csv?${new URLSearchParams(query).toString()}`;
    const lines = async (res: Response) => (await res.text()).replace(/^\uFEFF/, "").split("\r\n");

    it("is refused, and not offered on the page, when the owner's plan has no CSV export", async () => {
      const [demo] = await db().select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
      const plan = (csvExport: boolean) =>
        db()
          .update(subscriptions)
          .set({ features: sql`features || jsonb_build_object('csvExport', ${csvExport}::boolean)` })
          .where(eq(subscriptions.id, demo!.subscriptionId));
      const offered = async () =>
        (
          (await (await get(`/api/v1/device-data/public/report/${DEMO.reportHash}`)).json()) as {
            data: { csvExport: boolean };
          }
        ).data.csvExport;
      expect(await offered()).toBe(true);
      await plan(false);
      try {
        const res = await get(csv({ publicHash: DEMO.reportHash }));
        expect(res.status).toBe(403);
        expect((await res.json()).data).toEqual([{ field: null, message: REPORT_CSV_MESSAGE }]);
        expect(await offered()).toBe(false);
      } finally {
        await plan(true);
      }
      expect((await get(csv({ publicHash: DEMO.reportHash }))).status).toBe(200);
    });

    it("streams a row per time with a column per channel, times in the zone with their offset across a DST change", async () => {
      const { hash } = await dstReport("Spring forward");
      const res = await get(
        csv({
          publicHash: hash,
          temperatureScale: "C",
          timeZone: "America/New_York",
          reportName: "Night audit",
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="Night audit.csv"; filename*=UTF-8''Night%20audit.csv`,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await lines(res)).toEqual([
        "Time (America/New_York),Cold Room - Temperature (°C),Cold Room - Humidity (%)",
        "2026-03-08T01:58:00-05:00,4,",
        "2026-03-08T01:59:00-05:00,8.25,55.5",
        "2026-03-08T03:00:00-04:00,-1.5,",
        "2026-03-08T03:01:00-04:00,,56",
        "",
      ]);
    });

    it("converts temperatures to F (the default, and for an unknown scale) rounded to one decimal; bad zone is UTC", async () => {
      const { hash } = await dstReport("Spring forward F");
      for (const scale of [{}, { temperatureScale: "F" }, { temperatureScale: "kelvin" }]) {
        const res = await get(csv({ publicHash: hash, timeZone: "Mars/Olympus", ...scale }));
        const [header, first, second, third] = await lines(res);
        expect(header).toBe("Time (UTC),Cold Room - Temperature (°F),Cold Room - Humidity (%)");
        expect([first, second, third]).toEqual([
          "2026-03-08T06:58:00+00:00,39.2,",
          "2026-03-08T06:59:00+00:00,46.9,55.5",
          "2026-03-08T07:00:00+00:00,29.3,",
        ]);
      }
    });

    it("keeps to the asked range inside the report's window and names the file after the report", async () => {
      const { hash } = await dstReport('Lab / "Audit" — März');
      const res = await get(
        csv({
          publicHash: hash,
          startTime: String(epoch("2026-03-08T06:59:00Z")),
          endTime: String(epoch("2026-03-08T07:00:00Z")),
        }),
      );
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="Lab Audit Mrz.csv"; filename*=UTF-8''Lab%20Audit%20%E2%80%94%20M%C3%A4rz.csv`,
      );
      expect((await lines(res)).slice(1)).toEqual([
        "2026-03-08T06:59:00+00:00,46.9,55.5",
        "2026-03-08T07:00:00+00:00,29.3,",
        "",
      ]);
    });

    it("escapes formula prefixes in text cells", async () => {
      const { hash, humidity } = await dstReport("Formulas");
      const [channel] = await db().select().from(channels).where(eq(channels.id, humidity));
      const [group] = await db()
        .select()
        .from(channelGroups)
        .where(eq(channelGroups.id, channel!.channelGroupId));
      await db().update(channelGroups).set({ label: "=HYPERLINK(1)" }).where(eq(channelGroups.id, group!.id));
      try {
        const [header] = await lines(await get(csv({ publicHash: hash })));
        expect(header).toBe("Time (UTC),'=HYPERLINK(1) - Temperature (°F),'=HYPERLINK(1) - Humidity (%)");
      } finally {
        await db().update(channelGroups).set({ label: group!.label }).where(eq(channelGroups.id, group!.id));
      }
    });

    it("reads the whole range in many small chunks without losing or repeating a row", async () => {
      const { reportCsvStream } = await import("../../server/data/reportCsv.ts");
      const { zoneClock } = await import("../../src/domain/zoneTime.ts");
      const [demo] = await db().select().from(reports).where(eq(reports.publicHash, DEMO.reportHash));
      const { reportChannelList } = await import("../../server/data/reports.ts");
      const list = await reportChannelList(db(), demo!.id);
      const plan = {
        columns: list.map((ch) => ({
          channelId: ch.channelId,
          kind: ch.kind,
          adjust: ch.adjust,
          title: ch.name,
          units: ch.units,
        })),
        start: TEST_NOW.getTime() / 1000 - 6 * 3600,
        end: TEST_NOW.getTime() / 1000,
        scale: "C" as const,
        clock: zoneClock("UTC"),
      };
      const read = async (rowsPerChunk?: number) => {
        const text = await new Response(reportCsvStream(db(), plan, rowsPerChunk)).text();
        return text.split("\r\n").slice(1, -1);
      };
      const small = await read(100);
      const whole = await read(100_000);
      expect(small.length).toBe(6 * 60 + 1);
      expect(small).toEqual(whole);
      expect(new Set(small.map((l) => l.split(",")[0])).size).toBe(small.length);
    });

    it("answers the same 404 for every bad link and 400 for bad times, never a 500", async () => {
      for (const publicHash of BAD_HASHES) {
        const res = await get(csv({ publicHash, startTime: "abc" }));
        expect(res.status, publicHash).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
      expect((await get("/api/v1/device-data/public/samples/csv")).status).toBe(404);
      for (const bad of [
        { startTime: "abc" },
        { endTime: "-5" },
        { startTime: "2000", endTime: "1000" },
        { reportName: "x".repeat(500) },
      ]) {
        const res = await get(csv({ publicHash: DEMO.reportHash, ...bad }));
        expect(res.status, JSON.stringify(bad)).toBe(400);
      }
      // A range older than the report's window is its first instant (ends included), not an error.
      const older = await get(csv({ publicHash: DEMO.reportHash, startTime: "1000", endTime: "2000" }));
      expect(older.status).toBe(200);
      const rows = (await older.text()).split("\r\n").filter(Boolean).slice(1);
      expect(rows.length).toBeLessThanOrEqual(1);
      expect(rows.every((r) => r.startsWith("2026-11-21T12:00:00"))).toBe(true);
    });
  });

  describe("the audit PDF", () => {
    const pdf = (query: Record<string, string>) =>
      `/public/report-pdf/?${new URLSearchParams(query).toString()}`;

    it("writes the report's name, range, zone, statistics, the door's excursion and the live link", async () => {
      const res = await get(
        pdf({ reportPublicLinkHash: DEMO.reportHash, timezone: "America/New_York", tempScale: "C" }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      writeFileSync("/tmp/rs3-report.pdf", bytes);
      const text = pdfText(bytes);
      expect(text).toContain("Lab Climate — Last 24 Hours");
      expect(text).toContain("Range: Nov 21, 2026 7:00 AM to Nov 22, 2026 7:00 AM");
      expect(text).toContain("Time zone: America/New_York");
      expect(text).toContain("Generated: Nov 22, 2026 7:00 AM");
      expect(text.replaceAll("\n", "")).toContain(
        `Live report: https://portal.example.com/public/report/${DEMO.reportHash}?tempScale=C&timezone=America%2FNew_York`,
      );
      expect(text).toContain("Cold Room - Temperature");
      expect(text).toMatch(/Minimum -?\d+(\.\d+)? °C {3}Maximum \d+(\.\d+)? °C {3}Average/);
      // The demo's open door: one excursion into 'Cold room too warm', worst at or above 8 °C.
      const row = text.split("\n").indexOf("Cold room too warm");
      expect(row).toBeGreaterThan(0);
      expect(text).toMatch(/Time in threshold ranges: \d+ min/);
      expect(Number(text.split("\n")[row + 4]!.replace(" °C", ""))).toBeGreaterThanOrEqual(8);
      // The chart's lines (vectors) and the QR code (an image).
      expect(bytes.includes("/Subtype /Image")).toBe(true);
    });

    it("uses the asked title, channels and range, in F by default, with a file named after the title", async () => {
      const { hash, humidity } = await dstReport("Spring forward PDF");
      const res = await get(
        pdf({
          reportPublicLinkHash: hash,
          channelReportName: "Night =audit",
          channelIds: `${humidity},999999`,
          startTime: "2026-03-08T06:30:00Z",
          endTime: "2026-03-08T07:30:00Z",
          timezone: "Nowhere/City",
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(
        `inline; filename="Night =audit.pdf"; filename*=UTF-8''Night%20%3Daudit.pdf`,
      );
      const text = pdfText(Buffer.from(await res.arrayBuffer()));
      expect(text).toContain("Night =audit");
      expect(text).toContain("Range: Mar 08, 2026 6:30 AM to Mar 08, 2026 7:30 AM");
      expect(text).toContain("Time zone: UTC");
      expect(text).toContain("Cold Room - Humidity");
      expect(text).toContain("Minimum 55.5 %   Maximum 56 %   Average 55.75 %");
      expect(text).not.toContain("Cold Room - Temperature");
    });

    it("says from when to when a channel had no data and shades the stretch in its chart", async () => {
      const { hash } = await holeReport("Silent hole PDF");
      const res = await get(pdf({ reportPublicLinkHash: hash, timezone: "UTC" }));
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = pdfText(bytes);
      expect(text).toContain("No data from Mar 10, 2026 2:00 AM to Mar 10, 2026 4:00 AM (2 h)");
      // The chart's hatched band: a tiling pattern beside the lines' vectors.
      expect(bytes.includes("/PatternType 1")).toBe(true);
    });

    it("answers the same 404 for every bad link and 400 for bad input, never a 500", async () => {
      for (const reportPublicLinkHash of BAD_HASHES) {
        const res = await get(pdf({ reportPublicLinkHash, startTime: "nonsense" }));
        expect(res.status, reportPublicLinkHash).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
      expect((await get("/public/report-pdf/")).status).toBe(404);
      for (const bad of [
        { startTime: "nonsense" },
        { endTime: "2026-13-45T99:00:00Z" },
        { startTime: "2026-02-30T00:00:00Z" },
        { startTime: "2026-11-22T10:00:00Z", endTime: "2026-11-22T09:00:00Z" },
        { channelIds: "1;drop table" },
        { channelReportName: "x".repeat(500) },
      ]) {
        const res = await get(pdf({ reportPublicLinkHash: DEMO.reportHash, ...bad }));
        expect(res.status, JSON.stringify(bad)).toBe(400);
      }
      // A range older than the report's window is an empty period, not an error.
      const older = await get(
        pdf({
          reportPublicLinkHash: DEMO.reportHash,
          startTime: "2001-01-01T00:00:00Z",
          endTime: "2001-01-02T00:00:00Z",
        }),
      );
      expect(older.status).toBe(200);
      expect(older.headers.get("content-type")).toBe("application/pdf");
    });
  });
});
