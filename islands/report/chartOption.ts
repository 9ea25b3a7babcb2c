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
import { chartGaps, findGaps, gapLabel, withBreaks, type ChartGap } from "../../src/domain/chartGaps.ts";
import type { ChartMark } from "../../src/domain/chartMarks.ts";
import { markLines } from "./markLines.ts";

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

/** Average width (px) of a character of a gap's 11 px label, for deciding whether it fits. */
const CHAR_PX = 6.2;

/**
 * The chart's gaps as one markArea (on a series of their own): hatched grey bands the height
 * of the plot, labelled 'No data' at the top where the band is wide enough (`perSecond`: px per second).
 */
function gapArea(
  gaps: readonly ChartGap[],
  lineCount: number,
  { ink, paper }: { ink: string; paper: string },
  perSecond: number,
  wall: (t: number) => number,
) {
  return {
    silent: true,
    // Over the lines (as the server's picture draws it), so a label stays readable (3 was not enough).
    z: 10,
    data: gaps.map((gap) => {
      const width = (gap.to - gap.from) * perSecond;
      const label = [gapLabel(gap, lineCount), "No data"].find((l) => l.length * CHAR_PX + 6 <= width);
      return [
        {
          xAxis: wall(gap.from),
          name: label ?? "",
          itemStyle: {
            color: "rgba(128, 128, 128, 0.08)",
            borderColor: "rgba(128, 128, 128, 0.45)",
            borderType: "dashed" as const,
            borderWidth: 1,
            decal: {
              symbol: "rect",
              dashArrayX: [1, 0],
              dashArrayY: [2, 5],
              rotation: -Math.PI / 4,
              color: "rgba(128, 128, 128, 0.3)",
            },
          },
          // On a ground of the background's colour: another channel's line may run through the band.
          label: {
            show: !!label,
            position: "insideTop" as const,
            color: ink,
            fontSize: 11,
            backgroundColor: paper,
            padding: [2, 4],
            borderRadius: 2,
          },
        },
        { xAxis: wall(gap.to) },
      ];
    }),
  };
}

interface TooltipParam {
  seriesName: string;
  value: [number, number | null, number];
  color: string;
}

/**
 * `dark`: the page's dark theme (theme=dark), whose text and grid the picture's match; `width`:
 * the chart's in px (threshold names and gap labels where they fit; wide when not given).
 */
export function chartOption(
  report: PublicReport,
  data: ReportData,
  view: ReportView,
  dark = false,
  width?: number,
  story: readonly ChartMark[] = [],
) {
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
  const window = { from: data.start, to: data.end };
  const gapsOf = data.series.map((s) => findGaps(s.points, window, s.bucketSeconds));
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
      data: withBreaks(s.points, gapsOf[i]!).map(([t, v]) => [wall(t), v === null ? null : convert(v), t]),
      // Each axis's bands once, on its first line, so overlapping copies do not darken them.
      markArea: bands.length ? { silent: true, data: bands.map(band) } : undefined,
      markLine: edgesOf(marks.edges, i, ink, paper, width),
    };
  });
  const gaps = chartGaps(series.map((s, i) => ({ name: s.name, gaps: gapsOf[i]! })));
  const twoAxes = report.channelKeyList.some((c) => c.axis === 1);
  const plot = (width ?? 1000) - 48 - (twoAxes ? 48 : 16);
  // The gaps on a series of their own with no points: the tooltip and the legend skip it.
  const noData = (marked: readonly ChartGap[]) => ({
    type: "line" as const,
    name: "",
    data: [],
    silent: true,
    markArea: gapArea(marked, series.length, { ink, paper }, plot / Math.max(1, data.end - data.start), wall),
  });
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
    series: [
      ...series,
      ...(gaps.length ? [noData(gaps)] : []),
      ...(story.length ? [markLines(story, view.zone, wall, (data.end - data.start) / 50)] : []),
    ],
  };
}
