import type { PublicReport } from "../api/reports.ts";
import type { ChannelCompliance, ReportCompliance } from "../api/reportCompliance.ts";
import { formatDuration, formatStamp } from "../domain/reportText.ts";
import { isTemperatureKind } from "../domain/device.ts";
import { $report, $view, shown, unitOf, type ReportView } from "../stores/report.ts";
import { $compliance, loadCompliance } from "../stores/reportCompliance.ts";
import { element } from "./paint.ts";

/*
 * The report page's "Compliance" table under the chart (issue 36): a row per channel with its
 * mean kinetic temperature (temperatures only), minimum and maximum with their times, time in
 * each threshold range, the excursions and the longest, in the visitor's scale and zone. Loaded
 * by the page script once the chart data is in (not part of its first bytes).
 */

const COLUMNS = ["Channel", "MKT", "Minimum", "Maximum", "Time in threshold ranges", "Excursions", "Longest"];
const NONE = "—";

function cell(tag: "td" | "th", text: string, column: string) {
  const c = element(tag, text);
  if (tag === "th") c.scope = "col";
  c.setAttribute("role", tag === "th" ? "columnheader" : "cell");
  if (tag === "td") c.dataset["label"] = column;
  return c;
}

function rowOf(cells: HTMLElement[]) {
  const r = element("tr");
  r.setAttribute("role", "row");
  r.append(...cells);
  return r;
}

/** One channel's cells as text, in the view's scale and zone. */
export function complianceCells(ch: ChannelCompliance, report: PublicReport, view: ReportView): string[] {
  const sensor = report.sensorMap[ch.channelKey];
  const name = sensor?.name ?? ch.channelKey;
  if (!sensor || !ch.min || !ch.max) return [name, NONE, "No readings", NONE, NONE, NONE, NONE];
  const unit = unitOf(sensor, view.scale);
  const temperature = isTemperatureKind(sensor.kind);
  const value = (v: number) => `${shown(v, sensor.kind, view.scale)}${unit}`;
  const extreme = (e: { value: number; at: number }) =>
    `${value(e.value)} at ${formatStamp(e.at, view.zone)}`;
  // The MKT keeps two decimals in either scale: the figure an auditor compares.
  const mkt =
    ch.mkt === null
      ? NONE
      : `${Math.round((view.scale === "C" ? ch.mkt : (ch.mkt * 9) / 5 + 32) * 100) / 100}${unit}`;
  const names = new Map(
    report.thresholdRangeAssociations.map((a) => [a.thresholdRange.id, a.thresholdRange.name]),
  );
  const share = (s: number) => (ch.seconds > 0 ? ` (${((100 * s) / ch.seconds).toFixed(1)} %)` : "");
  const inRange = ch.ranges.length
    ? ch.ranges
        .map(
          (r) =>
            `${names.get(r.thresholdRangeId) ?? ""}: ${r.seconds ? `${formatDuration(r.seconds)}${share(r.seconds)}` : "none"}`,
        )
        .join("; ")
    : NONE;
  const longest = ch.longest
    ? `${formatDuration(ch.longest.duration)} from ${formatStamp(ch.longest.start, view.zone)}`
    : NONE;
  // Other kinds of channel show their extremes and time in range only.
  return [
    name,
    temperature ? mkt : NONE,
    extreme(ch.min),
    extreme(ch.max),
    inRange,
    temperature && ch.ranges.length ? String(ch.excursions) : NONE,
    temperature ? longest : NONE,
  ];
}

/** The table, in a region the keyboard can reach and scroll. */
export function complianceTable(
  figures: ReportCompliance,
  report: PublicReport,
  view: ReportView,
): HTMLElement {
  const table = element("table", undefined, "striped");
  table.setAttribute("role", "table");
  const thead = table.createTHead();
  thead.append(rowOf(COLUMNS.map((t) => cell("th", t, t))));
  const body = table.createTBody();
  for (const group of [thead, body]) group.setAttribute("role", "rowgroup");
  for (const ch of figures.channels)
    body.append(rowOf(complianceCells(ch, report, view).map((v, i) => cell("td", v, COLUMNS[i]!))));
  const scroll = element("div", undefined, "report-table");
  scroll.tabIndex = 0;
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-label", "Compliance figures");
  scroll.append(table);
  return scroll;
}

/** Fills the page's Compliance section and keeps it in step with the report, its view and the figures. */
export function followCompliance(hash: string) {
  const box = document.getElementById("report-compliance");
  if (!box) return;
  const paint = () => {
    const state = $report.get();
    const figures = $compliance.get();
    if (state.status !== "ready" || figures.status !== "ready") return void (box.hidden = true);
    // A window without a reading on any channel: Excursions says "No readings in this window";
    // a table of dashes under it would only repeat that (and now comes as early as it does).
    if (!figures.value.channels.some((ch) => ch.min && ch.max)) return void (box.hidden = true);
    const view = $view.get();
    box.hidden = false;
    box.querySelector('[data-field="note"]')!.textContent =
      `From every reading of the window; mean kinetic temperature (MKT) with an activation energy of ${figures.value.activationEnergy} kJ/mol; times in ${view.zone}.`;
    box
      .querySelector('[data-field="table"]')!
      .replaceChildren(complianceTable(figures.value, state.report, view));
  };
  $report.subscribe((state) => {
    if (state.status === "ready") void loadCompliance(hash);
    paint();
  });
  $view.listen(paint);
  $compliance.listen(paint);
}
