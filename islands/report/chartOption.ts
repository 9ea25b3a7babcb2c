import type { PublicReport, ReportData } from "../../src/api/reports.ts";
import { shown, unitOf, type ReportView } from "../../src/stores/report.ts";
import {
  axisTitles,
  chartInk,
  edgesOf,
  thresholdMarks,
  TIME_LABEL_MARGIN,
  timeAxisLabel,
  wallClock,
  type ThresholdBand,
} from "../../src/domain/chartAxes.ts";
import { formatStamp } from "../../src/domain/reportText.ts";

/*
 * The interactive chart's ECharts option: a series per channel in its colour and on its axis,
 * values in the visitor's scale, gaps left open, threshold ranges as bands or dashed edges, axis labels and
 * tooltips in the visitor's zone, zoom by wheel or pinch. The legend is HTML beside it.
 */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** An open side of a range reaches far past any reading (ECharts clips the band to the grid). */
const FAR = 1e9;

function band(range: ThresholdBand) {
  return [
    {
      yAxis: range.min ?? -FAR,
      name: range.name,
      itemStyle: { color: range.color, opacity: 0.35 },
    },
    { yAxis: range.max ?? FAR },
  ];
}

interface TooltipParam {
  seriesName: string;
  value: [number, number | null, number];
  color: string;
}

/** `dark`: the page's dark theme (theme=dark), whose text and grid the picture's match. */
export function chartOption(report: PublicReport, data: ReportData, view: ReportView, dark = false) {
  const { ink, line: grid, paper } = chartInk(dark);
  const channels = new Map(report.channelKeyList.map((c) => [c.channelKey, c]));
  const units = new Map<string, string>();
  const wall = wallClock(view.zone);
  const lines = data.series.map((s) => {
    const ch = channels.get(s.channelKey);
    const kind = report.sensorMap[s.channelKey]?.kind ?? "";
    return { key: s.channelKey, kind, axis: ch?.axis === 1 ? 1 : 0, color: ch?.color ?? "" };
  });
  const marks = thresholdMarks(
    lines,
    report.thresholdRangeAssociations.map(({ thresholdRange: r }) => ({
      name: r.name,
      key: r.channelKey,
      min: r.minValue,
      max: r.maxValue,
      color: r.color,
    })),
    (line) => (v) => shown(v, lines[line]!.kind, view.scale),
  );
  const firstOn = (axis: number) => lines.findIndex((l) => l.axis === axis);
  const series = data.series.map((s, i) => {
    const sensor = report.sensorMap[s.channelKey];
    const kind = sensor?.kind ?? "";
    const convert = (v: number) => shown(v, kind, view.scale);
    const name = sensor?.name ?? s.channelKey;
    units.set(name, sensor ? unitOf(sensor, view.scale) : "");
    const { axis, color } = lines[i]!;
    const bands = firstOn(axis) === i ? marks.bands.filter((b) => b.axis === axis) : [];
    return {
      type: "line" as const,
      name,
      yAxisIndex: axis,
      color: color || undefined,
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 1.5 },
      // [wall clock ms, value, epoch seconds]: see wallClock.
      data: s.points.map(([t, v]) => [wall(t), v === null ? null : convert(v), t]),
      // Each axis's bands once, on its first line, so overlapping copies do not darken them.
      markArea: bands.length ? { silent: true, data: bands.map(band) } : undefined,
      markLine: edgesOf(marks.edges, i, ink, paper),
    };
  });
  const twoAxes = report.channelKeyList.some((c) => c.axis === 1);
  const titles = axisTitles(
    series.map((s) => ({ axis: s.yAxisIndex, unit: units.get(s.name) ?? "" })),
    twoAxes ? [0, 1] : [0],
  );
  const yAxis = (i: number) => ({
    type: "value" as const,
    scale: true,
    name: titles[i],
    nameGap: 8,
    nameTextStyle: { color: ink, align: i === 0 ? ("right" as const) : ("left" as const) },
    axisLabel: { color: ink },
    splitLine: { show: i === 0, lineStyle: { color: grid } },
  });
  return {
    animation: false,
    // The x values are the zone's wall clock read as UTC (wallClock).
    useUTC: true,
    // Room above the plot for the axes' unit titles, and below it for the time labels' margin.
    grid: { left: 48, right: twoAxes ? 48 : 16, top: 28, bottom: 32, containLabel: false },
    tooltip: {
      trigger: "axis",
      // Kept inside the chart: on a phone a tooltip at the right edge ran off the screen.
      confine: true,
      formatter: (params: TooltipParam[]) => {
        const at = params[0]?.value[2];
        if (at === undefined) return "";
        const rows = params
          .filter((p) => p.value[1] !== null)
          .map(
            (p) =>
              `<span style="color:${p.color}">●</span> ${escape(p.seriesName)}: <strong>${p.value[1]}${escape(units.get(p.seriesName) ?? "")}</strong>`,
          );
        return [escape(formatStamp(at, view.zone)), ...rows].join("<br/>");
      },
    },
    xAxis: {
      type: "time" as const,
      min: wall(data.start),
      max: wall(data.end),
      axisLabel: {
        color: ink,
        formatter: timeAxisLabel("UTC"),
        hideOverlap: true,
        margin: TIME_LABEL_MARGIN,
      },
      axisLine: { lineStyle: { color: ink } },
    },
    yAxis: twoAxes ? [yAxis(0), yAxis(1)] : [yAxis(0)],
    dataZoom: [{ type: "inside", filterMode: "none" }],
    series,
  };
}
