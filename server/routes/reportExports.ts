import { Hono } from "hono";
import { secondsOf } from "../core/time.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf } from "../http/input.ts";
import { readsOf } from "../http/readRouting.ts";
import { clientIp } from "../http/clientIp.ts";
import { renderChartSvg, svgCache } from "../services/chartSvg.ts";
import { resolveTemperatureScale } from "../../src/domain/temperature.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";
import {
  downloadReportCsv,
  downloadReportPdf,
  getReportSvg,
  SVG_HEIGHT,
  SVG_WIDTH,
} from "../../src/api/reportExports.ts";
import { pageLinkOrigin } from "../http/links.ts";
import { reportPdf } from "../services/reportPdf.ts";
import { pdfChannels, pickChannels } from "../flows/reportView.ts";
import { requestedWindow, type TimeWindow } from "../../src/domain/reportWindow.ts";
import { ApiError } from "../core/errors.ts";
import { sessionToken } from "../http/cookies.ts";
import { memberExport } from "../flows/reportRecords.ts";
import { reportCsvStream } from "../data/reportCsv.ts";
import { marksVersion, pictureMarks, reportMarks } from "../flows/chartMarks.ts";
import { pdfComplianceOf, reportCsvPlan, windowDigest } from "../flows/reportCompliance.ts";
import { planAllows, REPORT_CSV_MESSAGE } from "../../src/domain/plan.ts";
import {
  dataVersion,
  fileDisposition,
  openReport,
  readSeries,
  reportParts,
  svgMarks,
  svgSeries,
} from "../flows/reportView.ts";

/** A rolling report's picture is drawn again at most this often (seconds) while its data stands still. */
const ROLLING_REDRAW_SECONDS = 30;

/** An SVG drawn by ECharts holds no script; this keeps it that way if opened on its own. */
const SVG_HEADERS = {
  "content-type": "image/svg+xml; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  "x-content-type-options": "nosniff",
};

/** A requested size rounded up to its step and held to its limits; the fallback when absent. */
function bucket(
  asked: string | undefined,
  size: { min: number; max: number; step: number; fallback: number },
) {
  if (asked === undefined) return size.fallback;
  const stepped = Math.ceil(Number(asked) / size.step) * size.step;
  return Math.min(size.max, Math.max(size.min, stepped));
}

/** The part of the report's window asked for (ends default to the window's), or a 400 on `field`. */
export function askedWindow(
  window: TimeWindow,
  start: number | undefined,
  end: number | undefined,
  field: string,
) {
  const asked = requestedWindow(window, { start, end });
  if ("error" in asked) throw new ApiError(400, [{ field, message: asked.error }]);
  return asked;
}

const fromTo = (range: { start: number; end: number }) => ({ from: range.start, to: range.end });
const epochOrUndefined = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const isoSeconds = (v: string | undefined) =>
  v === undefined ? undefined : Math.floor(Date.parse(v) / 1000);

/**
 * A shared report's exports by its public hash (token access): the first chart as SVG, the
 * CSV of its readings and the audit PDF. Every bad link answers the same 404 first.
 */
export function reportExportRoutes(deps: Deps) {
  const { db } = deps;
  const pictures = svgCache();
  return new Hono()
    .get(getReportSvg.path, guard(getReportSvg, deps), privateResponse, async (c) => {
      // The page's chart picture reads on the replica when it may serve, as its JSON does.
      const read = readsOf(c, deps.reads);
      const report = await read((readDb) => openReport(readDb, c.req.param("hash"), deps.now()));
      const input = await inputOf(c, getReportSvg);
      const scale = resolveTemperatureScale(input.tempScale);
      const clock = zoneClock(input.timezone ?? "UTC");
      const width = bucket(input.width, SVG_WIDTH);
      const height = bucket(input.height, SVG_HEIGHT);
      const dark = input.theme === "dark";
      const { channels, thresholds, window } = await read((readDb) =>
        reportParts(readDb, report, deps.now()),
      );
      const moment = report.timeInterval > 0 ? Math.floor(secondsOf(deps.now()) / ROLLING_REDRAW_SECONDS) : 0;
      const key = JSON.stringify([
        report.id,
        width,
        height,
        scale,
        clock.zone,
        dark,
        moment,
        dataVersion(channels, thresholds),
      ]);
      const marks = await read((readDb) => reportMarks(readDb, report, channels, window));
      const svg = await pictures.get(`${key}${marksVersion(report, marks)}`, async () => {
        const series = await read((readDb) => readSeries(readDb, channels, thresholds, window));
        return renderChartSvg({
          width,
          height,
          start: window.start,
          end: window.end,
          series: svgSeries(channels, series, scale),
          ...svgMarks(channels, thresholds, scale),
          offsetOf: clock.offset,
          zone: clock.zone,
          dark,
          marks: pictureMarks(marks, channels, window),
        });
      });
      return c.body(svg, 200, SVG_HEADERS);
    })
    .get(downloadReportCsv.path, guard(downloadReportCsv, deps), async (c) => {
      const report = await openReport(db, c.req.query("publicHash"), deps.now());
      const { channels, window, plan } = await reportParts(db, report, deps.now());
      // The owner's plan decides, as for its own device download (a report must not go around it).
      if (!planAllows(plan.features, "csvExport")) throw new ApiError(403, REPORT_CSV_MESSAGE);
      const input = await inputOf(c, downloadReportCsv);
      const range = askedWindow(
        window,
        epochOrUndefined(input.startTime),
        epochOrUndefined(input.endTime),
        "startTime",
      );
      await memberExport(deps, sessionToken(c), report, { format: "csv", ...fromTo(range) });
      const stream = reportCsvStream(
        db,
        reportCsvPlan(
          channels,
          range,
          resolveTemperatureScale(input.temperatureScale),
          input.timeZone ?? "UTC",
        ),
      );
      return c.body(stream, 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": fileDisposition(
          "attachment",
          input.reportName || report.name,
          "csv",
          "report",
        ),
      });
    })
    .get(downloadReportPdf.path, guard(downloadReportPdf, deps), privateResponse, async (c) => {
      const hash = c.req.query("reportPublicLinkHash");
      const report = await openReport(db, hash, deps.now());
      const input = await inputOf(c, downloadReportPdf);
      const scale = resolveTemperatureScale(input.tempScale);
      const clock = zoneClock(input.timezone ?? "UTC");
      const parts = await reportParts(db, report, deps.now());
      const range = askedWindow(
        parts.window,
        isoSeconds(input.startTime),
        isoSeconds(input.endTime),
        "startTime",
      );
      await memberExport(deps, sessionToken(c), report, { format: "pdf", ...fromTo(range) });
      const channels = pickChannels(parts.channels, input.channelIds);
      const series = await readSeries(db, channels, parts.thresholds, range);
      const marks = pictureMarks(await reportMarks(db, report, channels, range), channels, range);
      // The same plan as the CSV link's, so the printed hash is the downloaded file's.
      const csvPlan = reportCsvPlan(parts.channels, range, scale, clock.zone);
      const mkt = { activationEnergy: report.mktActivationEnergy, scale, zone: clock.zone };
      const digest = await deps.walks.run(clientIp(c, deps.config.trustProxy), () =>
        windowDigest(db, csvPlan, channels, parts.thresholds, mkt.activationEnergy),
      );
      const svgWidth = 1040;
      const svgHeight = 320;
      const svg = renderChartSvg({
        width: svgWidth,
        height: svgHeight,
        start: range.start,
        end: range.end,
        series: svgSeries(channels, series, scale),
        ...svgMarks(channels, parts.thresholds, scale),
        offsetOf: clock.offset,
        zone: clock.zone,
        marks,
      });
      const live = new URL(`/public/report/${encodeURIComponent(hash ?? "")}`, pageLinkOrigin(deps.config));
      live.search = new URLSearchParams({ tempScale: scale, timezone: clock.zone }).toString();
      const title = input.channelReportName || report.name;
      const pdf = await reportPdf({
        title,
        start: range.start,
        end: range.end,
        zone: clock.zone,
        generatedAt: secondsOf(deps.now()),
        liveUrl: live.toString(),
        svg,
        svgWidth,
        svgHeight,
        channels: pdfChannels(channels, parts.thresholds, series, scale, range),
        marks,
        compliance: pdfComplianceOf(channels, parts.thresholds, digest, mkt),
      });
      return c.body(new Uint8Array(pdf), 200, {
        "content-type": "application/pdf",
        "content-disposition": fileDisposition("inline", title, "pdf", "report"),
      });
    });
}
