// The shared report's exports (issue 10): the server SVG render time (4 lines × ~3,000 points
// with threshold bands, as the chart data call returns for any range), the audit PDF made
// from it, and the report CSV over a year of minute samples for 4 channels (525,600 rows) in
// the bench's own temporary PGlite: rows/s and the growth of memory during the export.
// Run alone with `node scripts/bench/reportExports.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { openDatabase } from "../../server/db/client.ts";
import { reportCsvStream } from "../../server/data/reportCsv.ts";
import { renderChartSvg, type SvgChart } from "../../server/services/chartSvg.ts";
import { reportPdf } from "../../server/services/reportPdf.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";
import { median } from "./timing.ts";
import { seed } from "./csv.ts";

const YEAR = 365 * 86_400;
const END = Date.parse("2026-01-01T00:00:00Z") / 1000;

/** Four channels of ~3,000 points over a year, with a gap and two bands: what a year's chart draws. */
function yearChart(width: number): SvgChart {
  const start = END - YEAR;
  const step = YEAR / 3000;
  const line = (base: number, i: number) =>
    Array.from({ length: 3000 }, (_, k) => {
      const at = Math.round(start + k * step);
      return [at, k > 1400 && k < 1420 ? null : base + 3 * Math.sin(k / 40 + i)] as [number, number | null];
    });
  return {
    width,
    height: 300,
    start,
    end: END,
    series: ["#1e88e5", "#43a047", "#e53935", "#8e24aa"].map((color, i) => ({
      name: `Channel ${i + 1}`,
      color,
      axis: i % 2,
      unit: i % 2 ? "%RH" : "°C",
      points: line(10 + 20 * i, i),
    })),
    bands: [
      { axis: 0, name: "Too warm", min: 8, max: null, color: "#ffcdd2" },
      { axis: 0, name: "Too cold", min: null, max: 1, color: "#bbdefb" },
    ],
    edges: [{ line: 1, name: "Too dry", value: 30, color: "#43a047" }],
    offsetOf: zoneClock("America/New_York").offset,
  };
}

async function timed<T>(work: () => Promise<T> | T, runs: number) {
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await work();
    times.push(performance.now() - started);
  }
  return { ms: median(times), last: last! };
}

/** The CSV stream over a year: rows/s and the peak growth of RSS while it runs. */
async function csvYear() {
  const dir = mkdtempSync(join(tmpdir(), "portal-report-csv-bench-"));
  try {
    const lite = await openDatabase({ dataDir: dir });
    const plan = await seed(lite.db);
    globalThis.gc?.();
    const before = process.memoryUsage.rss();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const started = performance.now();
    let lines = 0;
    const decoder = new TextDecoder();
    const stream = reportCsvStream(lite.db, {
      columns: plan.columns,
      start: plan.start.getTime() / 1000,
      end: plan.end.getTime() / 1000,
      scale: "F",
      clock: zoneClock("America/New_York"),
    });
    for await (const part of stream) {
      const text = decoder.decode(part);
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    await lite.close();
    return { rows: lines - 1, rowsPerSecond: (lines - 1) / seconds, growthMb: (peak - before) / 2 ** 20 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the table. */
export async function reportExportsBench() {
  const svg = await timed(() => renderChartSvg(yearChart(1200)), 7);
  const pdf = await timed(
    () =>
      reportPdf({
        title: "Bench report",
        start: END - YEAR,
        end: END,
        zone: "America/New_York",
        generatedAt: END,
        liveUrl: "http://localhost:4321/public/report/bench",
        svg: svg.last,
        svgWidth: 1200,
        svgHeight: 300,
        channels: [],
      }),
    5,
  );
  const csv = await csvYear();
  const [load] = loadavg();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `\n| report exports (load ${load!.toFixed(1)} on ${availableParallelism()} cores) | figure |\n|---|---:|`,
  );
  console.log(
    `| server SVG, 4 × 3,000 points + bands, 1200 × 300 (median of 7) | ${svg.ms.toFixed(0)} ms, ${kb(svg.last.length)} (${kb(gzipSync(svg.last).length)} gzip) |`,
  );
  console.log(
    `| audit PDF with that chart and a QR code (median of 5) | ${pdf.ms.toFixed(0)} ms, ${kb(pdf.last.length)} |`,
  );
  console.log(
    `| report CSV, a year × 4 channels (${csv.rows.toLocaleString("en-US")} rows, New York time, °F), PGlite | ${Math.round(csv.rowsPerSecond).toLocaleString("en-US")} rows/s, +${csv.growthMb.toFixed(1)} MB RSS |`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await reportExportsBench();
