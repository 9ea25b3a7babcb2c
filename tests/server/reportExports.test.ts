import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { seedDemo } from "../../server/seed/index.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { openTestDatabase, TEST_NOW, testConfig } from "./helpers.ts";

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

  describe("the server-rendered chart", () => {
    const svg = (hash: string, query = "") => `/public/report-svg/${encodeURIComponent(hash)}${query}`;

    it("draws the report's chart as SVG with a line per channel in its colour and the threshold bands", async () => {
      const res = await get(svg(DEMO.reportHash, "?width=1000&height=300"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      const text = await res.text();
      expect(text.startsWith("<svg")).toBe(true);
      expect(text).toContain('viewBox="0 0 1000 300"');
      for (const ch of REPORT_CHANNELS) expect(text, ch.color).toContain(`stroke="${ch.color}"`);
      // 'Cold room too warm' and 'too cold' as filled bands.
      expect(text).toContain('fill="#ffcdd2"');
      expect(text).toContain('fill="#bbdefb"');
      expect(text).not.toMatch(/<script/i);
    });

    it("labels the time axis in the visitor's zone", async () => {
      // Each 'HH:00' label sits where that hour of the zone's clock falls on the axis: the grid
      // spans x 48 to 952 (two y axes) over the report's last 24 hours.
      const end = TEST_NOW.getTime() / 1000;
      const checked = async (zone: string) => {
        const text = await (
          await get(svg(DEMO.reportHash, `?width=1000&timezone=${encodeURIComponent(zone)}`))
        ).text();
        const labels = [...text.matchAll(/translate\(([\d.]+) [\d.]+\)"[^>]*>(\d{2}):00</g)];
        expect(labels.length, zone).toBeGreaterThan(2);
        for (const [, x, hour] of labels) {
          const at = end - 86_400 + ((Number(x) - 48) / 904) * 86_400;
          const clock = new Intl.DateTimeFormat("en-GB", {
            timeZone: zone,
            hour: "2-digit",
            minute: "2-digit",
          });
          const [h, m] = clock
            .format(new Date(Math.round(at / 60) * 60_000))
            .split(":")
            .map(Number);
          const minutes = (h! * 60 + m! - Number(hour) * 60 + 1440) % 1440;
          expect(Math.min(minutes, 1440 - minutes), `${zone} ${hour}:00`).toBeLessThanOrEqual(2);
        }
        return labels.map((l) => l[2]);
      };
      expect(await checked("UTC")).not.toEqual(await checked("Asia/Kolkata"));
      await checked("America/New_York");
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
});
