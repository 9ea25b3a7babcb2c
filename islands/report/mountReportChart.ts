import { LineChart } from "echarts/charts";
import {
  DataZoomInsideComponent,
  GridComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { $report, $view } from "../../src/stores/report.ts";
import { $reportMarks, loadReportMarks } from "../../src/stores/reportMarks.ts";
import { chartMarks } from "../../src/domain/chartMarks.ts";
import { chartOption } from "./chartOption.ts";

// Only what the report's chart needs: lines, grid, tooltip, threshold bands and edges, zoom by wheel
// or pinch. The legend is HTML (the page's) and the zoom slider is left out: each is kilobytes.
// SVG, like the server's first chart, so the hand-over does not change how the chart looks.
echarts.use([
  LineChart,
  GridComponent,
  TooltipComponent,
  MarkAreaComponent,
  MarkLineComponent,
  DataZoomInsideComponent,
  SVGRenderer,
]);

/*
 * The interactive chart, mounted over the server's SVG in the chart box (this module is the
 * chunk the report page loads once its first chart shows). Plain ECharts, not React: React's
 * client (~70 KB gzip) beside ECharts' own ~185 KB would break the page's 200 KB budget, and
 * nothing else on the page needs React. It renders the report store and nothing more.
 */
export function mountReportChart(box: HTMLElement) {
  const host = document.createElement("div");
  host.className = "report-live";
  box.append(host);
  const chart = echarts.init(host, null, { renderer: "svg" });
  let shown = false;
  let drawnWidth = 0;
  const draw = () => {
    const state = $report.get();
    if (state.status !== "ready") return;
    const dark = document.documentElement.dataset["theme"] === "dark";
    drawnWidth = host.clientWidth;
    const { report, data } = state;
    const hash = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() ?? "");
    void loadReportMarks(hash, data);
    const { alarms, comments } = $reportMarks.get();
    const window = { from: data.start, to: data.end };
    const marks = chartMarks(alarms, comments, window, (key) => report.sensorMap[key]?.name ?? key);
    const option = chartOption(report, data, $view.get(), dark, drawnWidth || undefined, marks);
    chart.setOption(option, { notMerge: true });
    if (shown) return;
    // Drawn: the server's SVG goes, and the page script stops fetching it.
    shown = true;
    box.dataset["live"] = "1";
    for (const old of box.querySelectorAll(".report-svg, .report-loading")) old.remove();
    host.classList.add("is-ready");
  };
  $report.listen(draw);
  $view.listen(draw);
  $reportMarks.listen(draw);
  draw();
  // Drawn again when the width changes by a tenth: which names and gap labels fit depends on it.
  new ResizeObserver(() => {
    chart.resize();
    if (Math.abs(host.clientWidth - drawnWidth) > drawnWidth / 10) draw();
  }).observe(host);
}
