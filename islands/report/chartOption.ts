import type { PublicReport, ReportData, ThresholdRangeView } from "../../src/api/reports.ts";
import { shown, unitOf, type ReportView } from "../../src/stores/report.ts";
import { axisTitles } from "../../src/domain/chartAxes.ts";
import { formatStamp } from "../../src/domain/reportText.ts";

/*
 * The interactive chart's ECharts option: a series per channel in its colour and on its axis,
 * values in the visitor's scale, gaps left open, threshold ranges as bands, axis labels and
 * tooltips in the visitor's zone, zoom by wheel or pinch. The legend is HTML beside it.
 */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Axis labels: clock times within two days, dates beyond, in the zone. */
function axisLabel(zone: string, spanSeconds: number) {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    ...(spanSeconds <= 2 * 86_400
      ? { hour: "numeric", minute: "2-digit" }
      : { month: "short", day: "numeric" }),
  });
  return (ms: number) => format.format(new Date(ms));
}

/** An open side of a range reaches far past any reading (ECharts clips the band to the grid). */
const FAR = 1e9;

function band(range: ThresholdRangeView, convert: (v: number) => number) {
  return [
    {
      yAxis: range.minValue === null ? -FAR : convert(range.minValue),
      name: range.name,
      itemStyle: { color: range.color, opacity: 0.35 },
    },
    { yAxis: range.maxValue === null ? FAR : convert(range.maxValue) },
  ];
}

interface TooltipParam {
  seriesName: string;
  value: [number, number | null];
  color: string;
}

export function chartOption(report: PublicReport, data: ReportData, view: ReportView) {
  const channels = new Map(report.channelKeyList.map((c) => [c.channelKey, c]));
  const ranges = report.thresholdRangeAssociations.map((a) => a.thresholdRange);
  const units = new Map<string, string>();
  const series = data.series.map((s) => {
    const sensor = report.sensorMap[s.channelKey];
    const kind = sensor?.kind ?? "";
    const convert = (v: number) => shown(v, kind, view.scale);
    const name = sensor?.name ?? s.channelKey;
    units.set(name, sensor ? unitOf(sensor, view.scale) : "");
    const ch = channels.get(s.channelKey);
    const own = ranges.filter((r) => r.channelKey === s.channelKey || r.channelKey === null);
    return {
      type: "line" as const,
      name,
      yAxisIndex: ch?.axis === 1 ? 1 : 0,
      color: ch?.color,
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 1.5 },
      data: s.points.map(([t, v]) => [t * 1000, v === null ? null : convert(v)]),
      markArea: own.length ? { silent: true, data: own.map((r) => band(r, convert)) } : undefined,
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
    nameTextStyle: { align: i === 0 ? ("right" as const) : ("left" as const) },
    splitLine: { show: i === 0, lineStyle: { opacity: 0.4 } },
  });
  return {
    animation: false,
    // Room above the plot for the axes' unit titles.
    grid: { left: 48, right: twoAxes ? 48 : 16, top: 28, bottom: 28, containLabel: false },
    tooltip: {
      trigger: "axis",
      // Kept inside the chart: on a phone a tooltip at the right edge ran off the screen.
      confine: true,
      formatter: (params: TooltipParam[]) => {
        const at = params[0]?.value[0];
        if (at === undefined) return "";
        const lines = params
          .filter((p) => p.value[1] !== null)
          .map(
            (p) =>
              `<span style="color:${p.color}">●</span> ${escape(p.seriesName)}: <strong>${p.value[1]}${escape(units.get(p.seriesName) ?? "")}</strong>`,
          );
        return [escape(formatStamp(at / 1000, view.zone)), ...lines].join("<br/>");
      },
    },
    xAxis: {
      type: "time" as const,
      min: data.start * 1000,
      max: data.end * 1000,
      axisLabel: { formatter: axisLabel(view.zone, data.end - data.start), hideOverlap: true },
    },
    yAxis: twoAxes ? [yAxis(0), yAxis(1)] : [yAxis(0)],
    dataZoom: [{ type: "inside", filterMode: "none" }],
    series,
  };
}
