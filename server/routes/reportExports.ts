import { Hono } from "hono";
import { secondsOf } from "../core/time.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf } from "../http/input.ts";
import { renderChartSvg, svgCache } from "../services/chartSvg.ts";
import { resolveTemperatureScale } from "../../src/domain/temperature.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";
import { getReportSvg, SVG_HEIGHT, SVG_WIDTH } from "../../src/api/reportExports.ts";
import { dataVersion, openReport, readSeries, reportParts, svgBands, svgSeries } from "./reportView.ts";

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

/**
 * A shared report's exports by its public hash (token access): the first chart as SVG, the
 * CSV of its readings and the audit PDF. Every bad link answers the same 404 first.
 */
export function reportExportRoutes(deps: Deps) {
  const { db } = deps;
  const pictures = svgCache();
  return new Hono().get(getReportSvg.path, guard(getReportSvg, deps), privateResponse, async (c) => {
    const report = await openReport(db, c.req.param("hash"), deps.now());
    const input = await inputOf(c, getReportSvg);
    const scale = resolveTemperatureScale(input.tempScale);
    const clock = zoneClock(input.timezone ?? "UTC");
    const width = bucket(input.width, SVG_WIDTH);
    const height = bucket(input.height, SVG_HEIGHT);
    const dark = input.theme === "dark";
    const { channels, thresholds, window } = await reportParts(db, report, deps.now());
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
    const svg = await pictures.get(key, async () => {
      const series = await readSeries(db, channels, thresholds, window);
      return renderChartSvg({
        width,
        height,
        start: window.start,
        end: window.end,
        series: svgSeries(channels, series, scale),
        bands: svgBands(channels, thresholds, scale),
        offsetOf: clock.offset,
        dark,
      });
    });
    return c.body(svg, 200, SVG_HEADERS);
  });
}
