// The files of a scheduled report: the same PDF and CSV the shared report's exports make
// (reportExports.ts), for the period just ended, in the schedule's zone and scale, with the
// period clamped to the owner's plan (its data age). Not a route file.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { reports } from "../db/schema/index.ts";
import { reportCsvStream } from "../data/reportCsv.ts";
import { reportChannelList, reportPlan, reportThresholdList } from "../data/reports.ts";
import { renderChartSvg } from "../services/chartSvg.ts";
import type { MailAttachment } from "../services/mail.ts";
import { reportPdf } from "../services/reportPdf.ts";
import { pdfChannels, readSeries, svgMarks, svgSeries } from "./reportView.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { oldestAllowed, planAllows } from "../../src/domain/plan.ts";
import { localDate, type Period } from "../../src/domain/reportSchedule.ts";
import { resolveTemperatureScale } from "../../src/domain/temperature.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";

export interface ScheduledFilesInput {
  reportId: number;
  period: Period;
  timeZone: string;
  scale: string;
  format: string;
  /** The report builder's page, printed in the PDF as the live link. */
  liveUrl: string;
  now: Date;
}

/** A file name part without path or quoting characters. */
const safeName = (name: string) =>
  name
    .replace(/[^\p{L}\p{N} ._-]+/gu, " ")
    .trim()
    .slice(0, 80) || "report";

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The report's name and its attachments for a period, or null when the report is gone. The
 * CSV is left out when the owner's plan has no CSV export, as the shared report's CSV is.
 */
export async function scheduledFiles(db: Db, input: ScheduledFilesInput) {
  const [report] = await db.select().from(reports).where(eq(reports.id, input.reportId));
  if (!report) return null;
  const [channels, thresholds, plan] = await Promise.all([
    reportChannelList(db, report.id),
    reportThresholdList(db, report.id),
    reportPlan(db, report),
  ]);
  const oldest = oldestAllowed(plan.limits, Math.floor(input.now.getTime() / 1000) as EpochSeconds);
  const start = (oldest === null ? input.period.start : Math.max(input.period.start, oldest)) as EpochSeconds;
  const range = { start, end: Math.max(start, input.period.end) as EpochSeconds };
  const scale = resolveTemperatureScale(input.scale);
  const clock = zoneClock(input.timeZone);
  const base = `${safeName(report.name)} ${localDate(input.period.start, clock.zone)}`;
  const files: MailAttachment[] = [];
  if (input.format !== "csv") {
    const series = await readSeries(db, channels, thresholds, range);
    const svg = renderChartSvg({
      width: 1040,
      height: 320,
      start: range.start,
      end: range.end,
      series: svgSeries(channels, series, scale),
      ...svgMarks(channels, thresholds, scale),
      offsetOf: clock.offset,
      zone: clock.zone,
    });
    const pdf = await reportPdf({
      title: report.name,
      start: range.start,
      end: range.end,
      zone: clock.zone,
      generatedAt: Math.floor(input.now.getTime() / 1000),
      liveUrl: input.liveUrl,
      svg,
      svgWidth: 1040,
      svgHeight: 320,
      channels: pdfChannels(channels, thresholds, series, scale, range),
    });
    files.push({ filename: `${base}.pdf`, contentType: "application/pdf", content: new Uint8Array(pdf) });
  }
  const csvAllowed = planAllows(plan.features, "csvExport");
  if (input.format !== "pdf" && csvAllowed) {
    const csv = reportCsvStream(db, {
      columns: channels.map((ch) => ({
        channelId: ch.channelId,
        kind: ch.kind,
        adjust: ch.adjust,
        title: ch.name,
        units: ch.units,
      })),
      start: range.start,
      end: range.end,
      scale,
      clock,
    });
    files.push({ filename: `${base}.csv`, contentType: "text/csv", content: await readAll(csv) });
  }
  return { name: report.name, files, csvLeftOut: input.format !== "pdf" && !csvAllowed };
}
