import { readInlineConfig } from "../stores/inlineConfig.ts";
import {
  $report,
  $view,
  apiBase,
  followReport,
  periodOf,
  searchWith,
  setFetcher,
  setScale,
  setZone,
  viewOf,
  type ReportState,
} from "../stores/report.ts";
import { formatStamp, windowText } from "../domain/reportText.ts";
import { $reportMarks, loadReportMarks } from "../stores/reportMarks.ts";
import { paintAlarms, paintGaps } from "./reportNotes.ts";
import type { TemperatureScale } from "../domain/temperature.ts";
import { painted } from "./paint.ts";
import { lastSegment } from "./publicData.ts";
import { csvHref, excursionBlocks, legendItems, pdfHref, rangeItems, tiles } from "./reportRender.ts";

/*
 * The public report page (/public/report/{hash}): chart first, library later. This script
 * (no framework, no schemas) puts the server-rendered SVG chart in the page, paints the header,
 * legend, excursions and kiosk tiles, and keeps them fresh every 30 seconds through the
 * report store. Outside kiosk mode the interactive chart island loads once the chart shows;
 * kiosk mode never loads a chart library.
 */

const $ = (id: string) => document.getElementById(id)!;
const chart = $("report-chart");
const kiosk = new URLSearchParams(location.search).get("kiosk") === "1";
/** The page shows an SVG of the chart until the interactive island has drawn its own. */
const islandLive = () => chart.dataset["live"] === "1";

declare global {
  interface Window {
    /** Requests the page's head started (src/pages/public/report/[hash].astro). */
    portalEarlyReport?:
      | { report: string; reportResponse?: Promise<Response>; svgResponse?: Promise<Response> | undefined }
      | undefined;
  }
}

/** The head's early metadata request answers the store's first call for the same URL. */
function takeEarlyRequest() {
  const early = window.portalEarlyReport;
  if (!early?.reportResponse) return;
  const plain = (url: string) => fetch(url, { headers: { accept: "application/json" } });
  let pending: Promise<Response> | undefined = early.reportResponse;
  setFetcher((url) => {
    if (pending && url === early.report) {
      const r = pending;
      pending = undefined;
      return r;
    }
    return plain(url);
  });
}

/** The server's SVG of the chart at the box's size, in the visitor's scale and zone. */
function svgUrl(hash: string) {
  const { scale, zone } = $view.get();
  const width = Math.max(320, Math.round(chart.clientWidth || 800));
  const height = Math.max(200, Math.round(chart.clientHeight || 300));
  const q = new URLSearchParams({
    width: String(width),
    height: String(height),
    tempScale: scale,
    timezone: zone,
  });
  if (document.documentElement.dataset["theme"] === "dark") q.set("theme", "dark");
  const web = readInlineConfig(document)?.webBase || location.origin;
  return `${web}/public/report-svg/${encodeURIComponent(hash)}?${q.toString()}`;
}

let svgRequest: AbortController | undefined;
/** Replaces the chart box's SVG; a failure keeps the last one (kiosk shows 'stale since'). */
async function loadSvg(hash: string) {
  if (islandLive()) return;
  svgRequest?.abort();
  const request = new AbortController();
  svgRequest = request;
  try {
    // The head's request (at the width the layout was expected to have) serves the first chart.
    const early = window.portalEarlyReport?.svgResponse;
    if (early) window.portalEarlyReport!.svgResponse = undefined;
    const res = await (early ?? fetch(svgUrl(hash), { signal: request.signal }));
    if (!res.ok) throw new Error(`SVG answered ${res.status}`);
    const svg = await res.text();
    if (request.signal.aborted || islandLive()) return;
    // Our own server's rendering (ECharts escapes the names in it); one node replaced per refresh.
    const box = document.createElement("div");
    box.className = "report-svg";
    box.innerHTML = svg;
    chart.replaceChildren(box);
  } catch {
    /* The chart keeps what it showed; the island (or the next refresh) draws it. */
  } finally {
    if (svgRequest === request) svgRequest = undefined;
    chartShown();
  }
}

/** Starts the report's reads and refreshes (set by main). */
let startFollowing: (() => void) | undefined;
/** Work that waits for the first chart on screen, and no longer (set by main). */
const onChartShown: (() => void)[] = [];

/** The first chart is on screen: the budget test measures up to here; the island may load. */
function chartShown() {
  if (document.documentElement.dataset["painted"] === "1") return;
  chart.removeAttribute("aria-busy");
  performance.mark("report:chart");
  painted(chart);
  // The chart data (tens of KB) waits for the chart: on a slow link the SVG has the bandwidth.
  startFollowing?.();
  startFollowing = undefined;
  for (const run of onChartShown.splice(0)) run();
  if (!kiosk && $report.get().status !== "invalid") loadIsland();
}

/** Runs `then` once the interactive chart has drawn, or after 15 s if it never does. */
function afterChart(then: () => void) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    watch.disconnect();
    then();
  };
  const watch = new MutationObserver(() => islandLive() && run());
  watch.observe(chart, { attributes: true, attributeFilter: ["data-live"] });
  setTimeout(run, 15_000);
  if (islandLive()) run();
}

/**
 * The interactive chart (ECharts) once the browser is idle, or after 3 s at the latest (a page
 * with nothing moving may get no idle callback at all): tooltips and zoom.
 */
function loadIsland() {
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 1));
  idle(
    async () => {
      if ($report.get().status === "invalid") return;
      const { mountReportChart } = await import("../../islands/report/mountReportChart.ts");
      mountReportChart(chart);
    },
    { timeout: 3000 },
  );
}

function invalid() {
  $("report-body").hidden = true;
  // Nothing to switch or download on a link that shows no report.
  (document.querySelector(".report-controls") as HTMLElement).hidden = true;
  $("report-stale").hidden = true;
  const problem = $("report-invalid");
  problem.hidden = false;
  problem.focus();
  chartShown();
}

function paintState(hash: string, state: ReportState) {
  if (state.status === "loading") return;
  if (state.status === "invalid") return invalid();
  const { report, data } = state;
  const view = $view.get();
  const name = report.reportDetails.name;
  $("report-name").textContent = name;
  $("report-window").textContent = windowText(report.window, view.zone);
  document.title = `${name} · Device Portal`;
  const legend = legendItems(report);
  $("report-legend").replaceChildren(...legend);
  $("report-empty").hidden = legend.length > 0;
  paintGaps($("report-gaps"), report, data, view.zone);
  const ranges = rangeItems(report, view);
  $("report-ranges").replaceChildren(...ranges);
  $("report-ranges").hidden = ranges.length === 0;
  const web = readInlineConfig(document)?.webBase || location.origin;
  // Without CSV export in the owner's plan the link is not offered at all (its call says 403).
  $("report-csv").hidden = !report.csvExport;
  link("report-csv", csvHref(apiBase(), hash, report, data, view));
  link("report-pdf", pdfHref(web, hash, report, data, view));
  const blocks = excursionBlocks(report, data, view);
  const excursions = $("report-excursions");
  excursions.hidden = blocks.length === 0;
  excursions.querySelector('[data-field="zone"]')!.textContent = view.zone;
  excursions.querySelector('[data-field="list"]')!.replaceChildren(...blocks);
  paintAlarms($("report-alarms"), report, view.zone);
  // The alarms of the window (a small read): the line above the chart says which are active.
  void loadReportMarks(hash, report.window);
  const stale = $("report-stale");
  stale.hidden = state.staleSince === null;
  if (state.staleSince !== null)
    stale.textContent = `stale since ${formatStamp(state.staleSince / 1000, view.zone)}`;
  if (kiosk) {
    const box = $("report-tiles");
    box.hidden = false;
    box.replaceChildren(...tiles(report, view, Date.now() / 1000));
  }
}

function link(id: string, href: string) {
  const a = $(id) as HTMLAnchorElement;
  a.href = href;
  a.removeAttribute("aria-disabled");
}

/** The header's radio and dropdown follow the view and change it. */
function wireControls() {
  const zones = $("report-zone") as HTMLSelectElement;
  const { scale, zone } = $view.get();
  if (![...zones.options].some((o) => o.value === zone)) zones.add(new Option(zone.replace(/_/g, " "), zone));
  zones.value = zone;
  zones.addEventListener("change", () => setZone(zones.value));
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="tempScale"]')) {
    radio.checked = radio.value === scale;
    radio.addEventListener("change", () => radio.checked && setScale(radio.value as TemperatureScale));
  }
}

async function main() {
  const hash = lastSegment(location.pathname);
  $view.set(viewOf(location.search));
  history.replaceState(history.state, "", searchWith(location.search, $view.get()) + location.hash);
  if (!hash || hash === "_") return invalid();
  wireControls();
  takeEarlyRequest();
  // Kiosk asks once its tiles have taken their place, so the chart is drawn for the room left.
  if (!kiosk) void loadSvg(hash);
  // A changed scale or zone is kept in the address (no reload) and redrawn.
  $view.listen((view) => {
    history.replaceState(history.state, "", searchWith(location.search, view) + location.hash);
    paintState(hash, $report.get());
    void loadSvg(hash);
  });
  $reportMarks.listen(() => {
    const state = $report.get();
    if (state.status === "ready") paintAlarms($("report-alarms"), state.report, $view.get().zone);
  });
  let version: unknown;
  let answers = 0;
  $report.subscribe((state) => {
    paintState(hash, state);
    // Counted for the kiosk soak (scripts/bench/kioskSoak.ts): answers painted so far.
    if (state.status === "ready") $("report").dataset["answers"] = String(++answers);
    // A wall display runs for weeks: the browser's timing entry of every request is let go.
    if (kiosk) performance.clearResourceTimings();
    // A new answer (a refresh) redraws the SVG; an unchanged one (a stale mark) does not.
    const data = state.status === "ready" ? state.data : undefined;
    if (data && data !== version && (version !== undefined || kiosk)) void loadSvg(hash);
    if (data) version = data;
  });
  startFollowing = () => followReport(hash, { periodMs: kiosk ? periodOf(location.search) : undefined });
  // The compliance table (a few KB) loads with the chart data once the first chart shows, not
  // after the chart library: on a slow phone link it used to appear ~9 s in, above Excursions,
  // and push the page down. The subscribe form, far below, waits for the interactive chart.
  // Kiosk shows neither.
  if (!kiosk) {
    onChartShown.push(() => void import("./complianceRender.ts").then((m) => m.followCompliance(hash)));
    afterChart(() => void import("./reportSubscribe.ts"));
  }
  if (kiosk) {
    startFollowing();
    startFollowing = undefined;
  }
}

/** Runs the page: called once by its Astro page. */
export function showReport() {
  void main();
}
