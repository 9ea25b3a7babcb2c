// The audit PDF of a year (issue 36): 4 channels × 525,600 minute samples in the bench's own
// temporary PGlite, rolled up as ingestion would, shared as a report with a threshold range;
// the PDF asked through the app (chart data, chart SVG, the CSV read once for its SHA-256 and
// the compliance figures, pdfkit), and the CSV pass alone. The goal: ≤ 3 s.
// Run alone with `node scripts/bench/compliancePdf.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { eq } from "drizzle-orm";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import {
  channels,
  devices,
  reportChannels,
  reports,
  reportThresholds,
  thresholdRanges,
} from "../../server/db/schema/index.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { reportChannelList, reportThresholdList } from "../../server/data/reports.ts";
import { reportCsvPlan, windowDigest } from "../../server/flows/reportCompliance.ts";
import { median } from "./timing.ts";
import { seed } from "./csv.ts";

const HASH = "benchcompliancepdf0000000";

/**
 * The median wall time of `runs` runs, and the median CPU time of this process in them: on a
 * shared machine the CPU time says what the work costs, the wall time what others left of it.
 */
async function timed(work: () => Promise<unknown>, runs: number) {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    await work();
    times.push(performance.now() - started);
    const { user, system } = process.cpuUsage(used);
    cpu.push((user + system) / 1000);
  }
  return `${(median(times) / 1000).toFixed(2)} s (CPU ${(median(cpu) / 1000).toFixed(2)} s)`;
}

/** Prints the figures. */
export async function compliancePdfBench(runs = 3) {
  const dir = mkdtempSync(join(tmpdir(), "portal-compliance-pdf-bench-"));
  try {
    const lite = await openDatabase({ dataDir: dir });
    const { db } = lite;
    const plan = await seed(db);
    const ids = plan.columns.map((c) => c.channelId);
    const start = plan.start.getTime() / 1000;
    const end = Math.floor(plan.end.getTime() / 1000);
    await rollUpRange(db, ids, start, end + 1);
    const [channel] = await db.select().from(channels).where(eq(channels.id, ids[0]!));
    const [device] = await db.select().from(devices);
    const [report] = await db
      .insert(reports)
      .values({
        subscriptionId: device!.subscriptionId,
        name: "Bench year",
        publicHash: HASH,
        startDate: plan.start,
        endDate: plan.end,
      })
      .returning();
    await db
      .insert(reportChannels)
      .values(
        ids.map((channelId, i) => ({ reportId: report!.id, channelId, color: "#1e88e5", axis: i % 2 })),
      );
    const [range] = await db
      .insert(thresholdRanges)
      .values({
        subscriptionId: device!.subscriptionId,
        name: "Too warm",
        channelId: channel!.id,
        minValue: 24.9,
        maxValue: null,
        color: "#e53935",
      })
      .returning();
    await db.insert(reportThresholds).values({ reportId: report!.id, thresholdRangeId: range!.id });
    const app = buildApp({ db, config: parseConfig({ DEMO: "0", SIMULATOR: "0" }), now: () => plan.end });
    let bytes = 0;
    const pdfTime = await timed(async () => {
      const res = await app.request(
        `http://localhost/public/report-pdf/?reportPublicLinkHash=${HASH}&tempScale=F&timezone=America/New_York`,
      );
      if (res.status !== 200) throw new Error(`PDF answered ${res.status}`);
      bytes = (await res.arrayBuffer()).byteLength;
    }, runs);
    const list = await reportChannelList(db, report!.id);
    const thresholds = await reportThresholdList(db, report!.id);
    const digestTime = await timed(
      () =>
        windowDigest(
          db,
          reportCsvPlan(list, { start, end }, "F", "America/New_York"),
          list,
          thresholds,
          83.144,
        ),
      runs,
    );
    await lite.close();
    const [load] = loadavg();
    console.log(
      `\n| audit PDF of a year (load ${load!.toFixed(1)} on ${availableParallelism()} cores), PGlite | figure |\n|---|---:|`,
    );
    console.log(
      `| PDF, 4 channels × 525,600 minutes, compliance and data SHA-256 (median of ${runs}) | ${pdfTime}, ${(bytes / 1024).toFixed(0)} KB |`,
    );
    console.log(`| of which the CSV pass (SHA-256 and figures) alone (median of ${runs}) | ${digestTime} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await compliancePdfBench();
