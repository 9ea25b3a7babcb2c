import { describe, expect, it } from "vitest";
import { reportCsvHeader, reportCsvStream, type ReportCsvPlan } from "../../server/data/reportCsv.ts";
import { secondsOfMicros, type ReadingRun } from "../../server/data/readingRuns.ts";
import { celsius } from "../../src/domain/brand.ts";
import { fromCelsius } from "../../src/domain/temperature.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";
import { COLD_ROOM, addSamples, channelId } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

// The report CSV reads each channel's raw readings on its own and merges them by time in
// Node (server/data/readingRuns.ts, csvBytes.ts). Here its file is compared with one written
// row by row from the readings the test stored, with the shared rules, on whichever driver
// the suite runs (PGlite, or PostgreSQL with TEST_DATABASE_URL).

/** New York springs forward at 07:00 UTC that day; long before the demo's readings. */
const DST = Date.parse("2019-03-10T07:00:00Z") / 1000;
const ZONE = "America/New_York";

type Reading = [number, number];

/** Minutes across the change with a silence, channels reporting apart, and a burst of seconds. */
function fixture(): Reading[][] {
  const minutes = Array.from({ length: 240 }, (_, i) => DST - 7200 + i * 60).filter(
    (t) => t < DST + 600 || t >= DST + 2400,
  );
  const burst = Array.from({ length: 90 }, (_, i) => DST + 4000 + i);
  return [
    minutes
      .filter((_, k) => k % 3 !== 0)
      .map((t, k): Reading => [t, Math.round(400 + 30 * Math.sin(k)) / 100]),
    [...new Set([...minutes.filter((_, k) => k % 2 === 0), ...burst])]
      .sort((a, b) => a - b)
      .map((t, k): Reading => [t, 40 + (k % 17) * 1.25]),
    minutes.slice(10, 60).map((t, k): Reading => [t, -k / 3 - 0.5]),
  ];
}

/** The file written row by row: a row per time any channel read, its cells or empty. */
function reference(plan: ReportCsvPlan, readings: Reading[][]): string {
  const clock = zoneClock(plan.clock.zone);
  const times = [...new Set(readings.flat().map(([t]) => t))].sort((a, b) => a - b);
  const byTime = readings.map((rs) => new Map(rs));
  const cell = (c: number, v: number | undefined) => {
    if (v === undefined) return "";
    const column = plan.columns[c]!;
    return column.kind === "temperature"
      ? String(fromCelsius(celsius(v + column.adjust), plan.scale) + 0)
      : String(Math.round((v + column.adjust) * 10_000) / 10_000 + 0);
  };
  const lines = times.map((t) => [clock.iso(t), ...byTime.map((m, c) => cell(c, m.get(t)))].join(","));
  return "\uFEFF" + reportCsvHeader(plan) + lines.map((l) => l + "\r\n").join("");
}

describe("the report CSV's reading of raw readings", () => {
  const ctx = useTestApp({ seeded: true });

  async function stored(scale: "C" | "F") {
    const db = ctx.database.db;
    const readings = fixture();
    const kinds = ["temperature", "humidity", "temperature"];
    const columns = await Promise.all(
      readings.map(async (rs, i) => {
        const id = await channelId(db, `${COLD_ROOM}_${i + 1}`);
        await addSamples(db, id, rs);
        return { channelId: id, kind: kinds[i]!, adjust: i === 2 ? 0.35 : 0, title: `Ch ${i}`, units: "C" };
      }),
    );
    const plan: ReportCsvPlan = {
      columns,
      start: DST - 7200,
      end: DST + 7200,
      scale,
      clock: zoneClock(ZONE),
    };
    return { db, readings, plan };
  }

  const text = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let out = "";
    for await (const part of stream) out += decoder.decode(part, { stream: true });
    return out;
  };

  it("writes the file a row-by-row reference writes, in big chunks and in chunks of a few rows", async () => {
    const { db, readings, plan } = await stored("F");
    const expected = reference(plan, readings);
    expect(expected.split("\r\n").length).toBeGreaterThan(200);
    expect(await text(reportCsvStream(db, plan))).toBe(expected);
    expect(await text(reportCsvStream(db, plan, 3))).toBe(expected);
    expect(await text(reportCsvStream(db, plan, 100))).toBe(expected);
  });

  it("keeps to the window's ends, both included, in Celsius", async () => {
    const { db, readings, plan } = await stored("C");
    const window = { ...plan, start: DST - 3600, end: DST + 4010 };
    const inside = readings.map((rs) => rs.filter(([t]) => t >= window.start && t <= window.end));
    expect(await text(reportCsvStream(db, window, 7))).toBe(reference(window, inside));
  });

  it("shows every channel's readings to the watcher once, in time order, whatever the chunk size", async () => {
    const { db, readings, plan } = await stored("C");
    for (const rowsPerChunk of [2, 5, 10_000]) {
      const seen: Reading[][] = plan.columns.map(() => []);
      const watch = (column: number, run: ReadingRun, count: number) => {
        for (let i = 0; i < count; i++) seen[column]!.push([secondsOfMicros(run.micros[i]!), run.values[i]!]);
      };
      await text(reportCsvStream(db, { ...plan, watch }, rowsPerChunk));
      expect(seen).toEqual(readings);
    }
  });
});
