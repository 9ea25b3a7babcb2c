import type { PublicReport, ReportData, ReportSeries } from "../api/reports.ts";
import { shown, unitOf, REPORT_API, type ReportView } from "../stores/report.ts";
import { formatAge, formatDuration, formatStamp } from "../domain/reportText.ts";
import { element } from "./paint.ts";

/*
 * The report page's DOM, written by its small first script without a framework: legend,
 * download links, excursions and kiosk tiles. Each call replaces what it drew before, so a
 * page refreshed for weeks keeps the same number of nodes.
 */

/** 'sensor name - channel name' with its colour dot, or nothing (the page shows the empty message). */
export function legendItems(report: PublicReport): HTMLElement[] {
  return report.channelKeyList.map((ch) => {
    const item = element("li");
    const dot = element("span", undefined, "report-dot");
    dot.style.background = ch.color;
    dot.setAttribute("aria-hidden", "true");
    item.append(dot, report.sensorMap[ch.channelKey]?.name ?? ch.channelKey);
    return item;
  });
}

/**
 * The threshold ranges as legend items: a dashed swatch in the range's colour, its name and
 * bounds in the visitor's scale ('Cold room too warm: above 46.4°F'). The chart names them on
 * their lines only where it is wide enough (src/domain/chartAxes.ts EDGE_NAMES_MIN_WIDTH).
 */
export function rangeItems(report: PublicReport, view: ReportView): HTMLElement[] {
  return report.thresholdRangeAssociations.map(({ thresholdRange: r }) => {
    const item = element("li");
    const swatch = element("span", undefined, "report-range");
    // The chart draws a channel's range as dashed lines in that channel's colour.
    const line = report.channelKeyList.find((c) => c.channelKey === r.channelKey);
    swatch.style.borderColor = line?.color ?? r.color;
    swatch.setAttribute("aria-hidden", "true");
    const sensor = r.channelKey === null ? undefined : report.sensorMap[r.channelKey];
    const value = (v: number) =>
      sensor ? `${shown(v, sensor.kind, view.scale)}${unitOf(sensor, view.scale)}` : "";
    const bounds =
      !sensor || (r.minValue === null && r.maxValue === null)
        ? ""
        : r.minValue === null
          ? `: below ${value(r.maxValue!)}`
          : r.maxValue === null
            ? `: above ${value(r.minValue)}`
            : `: ${value(r.minValue)} to ${value(r.maxValue)}`;
    item.append(swatch, `${r.name}${bounds}`);
    return item;
  });
}

/** The CSV call (spec section 7) for the window shown, in the visitor's scale and zone. */
export function csvHref(
  base: string,
  hash: string,
  report: PublicReport,
  data: ReportData,
  view: ReportView,
) {
  const q = new URLSearchParams({
    publicHash: hash,
    startTime: String(data.start),
    endTime: String(data.end),
    temperatureScale: view.scale,
    timeZone: view.zone,
    reportName: report.reportDetails.name,
  });
  return `${base}${REPORT_API.csv}?${q.toString()}`;
}

/** The PDF page (spec section 7): ISO times, the report's channels. */
export function pdfHref(
  base: string,
  hash: string,
  report: PublicReport,
  data: ReportData,
  view: ReportView,
) {
  const iso = (s: number) => new Date(s * 1000).toISOString();
  const q = new URLSearchParams({
    reportPublicLinkHash: hash,
    timezone: view.zone,
    tempScale: view.scale,
    channelReportName: report.reportDetails.name,
    channelIds: report.channelIdList.join(","),
    startTime: iso(data.start),
    endTime: iso(data.end),
  });
  return `${base}${REPORT_API.pdf}?${q.toString()}`;
}

const COLUMNS = ["Range", "Start", "End", "Duration", "Worst value"];
export const NO_READINGS_IN_WINDOW = "No readings in this window.";

/**
 * A cell with its role said outright: on a phone the rows stack as blocks (each value under
 * its column's name, data-label), and a table restyled that way loses its roles otherwise.
 */
function cell(tag: "td" | "th", text: string, column: string) {
  const c = element(tag, text);
  if (tag === "th") c.scope = "col";
  c.setAttribute("role", tag === "th" ? "columnheader" : "cell");
  if (tag === "td") c.dataset["label"] = column;
  return c;
}

const row = () => {
  const r = element("tr");
  r.setAttribute("role", "row");
  return r;
};

/** One channel's excursions: the time outside, then start, end, duration and worst value. */
function channelExcursions(series: ReportSeries, report: PublicReport, view: ReportView): HTMLElement {
  const sensor = report.sensorMap[series.channelKey];
  const box = element("article", undefined, "report-channel-excursions");
  const name = sensor?.name ?? series.channelKey;
  // No readings in the window is not "0 s outside": an audit would read it as in range.
  if (series.stats === null) {
    box.append(element("h3", name), element("p", NO_READINGS_IN_WINDOW, "muted"));
    return box;
  }
  box.append(
    element("h3", name),
    element("p", `Time in threshold ranges: ${formatDuration(series.secondsOutside)}`),
  );
  if (!series.excursions.length) return box;
  const ranges = new Map(
    report.thresholdRangeAssociations.map((a) => [a.thresholdRange.id, a.thresholdRange]),
  );
  const table = element("table", undefined, "striped");
  table.setAttribute("role", "table");
  const head = row();
  head.append(...COLUMNS.map((t) => cell("th", t, t)));
  const thead = table.createTHead();
  thead.append(head);
  const body = table.createTBody();
  for (const group of [thead, body]) group.setAttribute("role", "rowgroup");
  const unit = sensor ? unitOf(sensor, view.scale) : "";
  for (const e of series.excursions) {
    const worst = sensor ? shown(e.worst, sensor.kind, view.scale) : e.worst;
    const values = [
      ranges.get(e.thresholdRangeId)?.name ?? "",
      formatStamp(e.start, view.zone),
      formatStamp(e.end, view.zone),
      formatDuration(e.duration),
      `${worst}${unit} at ${formatStamp(e.worstAt, view.zone)}`,
    ];
    const line = row();
    line.append(...values.map((v, i) => cell("td", v, COLUMNS[i]!)));
    body.append(line);
  }
  // A region the keyboard can reach (and scroll, where a wide screen's table still overflows).
  const scroll = element("div", undefined, "report-table");
  scroll.tabIndex = 0;
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-label", `Excursions of ${name}`);
  scroll.append(table);
  box.append(scroll);
  return box;
}

/** Excursions of the channels that have threshold ranges (the others have nothing to report). */
export function excursionBlocks(report: PublicReport, data: ReportData, view: ReportView): HTMLElement[] {
  const ranged = new Set<string | null>(
    report.thresholdRangeAssociations.map((a) => a.thresholdRange.channelKey),
  );
  return data.series
    .filter((s) => ranged.has(null) || ranged.has(s.channelKey))
    .map((s) => channelExcursions(s, report, view));
}

/** Kiosk tiles: each channel's latest value, large, with its age. */
export function tiles(report: PublicReport, view: ReportView, nowSeconds: number): HTMLElement[] {
  return report.channelKeyList.map((ch) => {
    const sensor = report.sensorMap[ch.channelKey];
    const tile = element("div", undefined, "report-tile");
    tile.style.borderColor = ch.color;
    const value =
      sensor?.value === null || sensor?.value === undefined
        ? "—"
        : `${shown(sensor.value, sensor.kind, view.scale)}${unitOf(sensor, view.scale)}`;
    const age = sensor?.lastReceived ? formatAge(nowSeconds - sensor.lastReceived) : "no reading";
    tile.append(
      element("span", sensor?.name ?? ch.channelKey, "report-tile-name"),
      element("strong", value, "report-tile-value"),
      element("span", age, "report-tile-age"),
    );
    return tile;
  });
}
