import { epochSeconds } from "../../src/domain/brand.ts";
import { TIME_LABEL_MARGIN, timeAxisLabel, wallClock } from "../../src/domain/chartAxes.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";
import type { ChartData } from "../../src/stores/explore.ts";

/**
 * The explore chart's ECharts option: one line, a time axis in the zone, tooltip, zoom by
 * wheel or slider. Apart from HistoryChart.tsx so it can be drawn without React.
 */
export function historyOption(data: ChartData, zone: string) {
  // [wall clock ms, value, epoch ms]: the zone's clock read as UTC, so ticks fall on its hours.
  const wall = wallClock(zone);
  const points = data.points.map(([at, value]) => [wall(at / 1000), value, at]);
  const unit = data.unit ? ` ${data.unit}` : "";
  return {
    animation: false,
    useUTC: true,
    // Below the plot: the time labels' margin, the labels, then the zoom slider.
    grid: { left: 56, right: 20, top: 28, bottom: 76 },
    tooltip: {
      trigger: "axis",
      // Kept inside the chart: on a phone a tooltip at the right edge ran off the screen.
      confine: true,
      // Only numbers and a formatted date: the tooltip is HTML, the channel's label never goes in.
      formatter: (params: { value: [number, number, number] }[]) => {
        const [, value, at] = params[0]?.value ?? [0, 0, 0];
        return `${formatPushTime(epochSeconds(at / 1000), zone)}<br/><strong>${value}${unit}</strong>`;
      },
    },
    xAxis: {
      type: "time",
      axisLabel: { formatter: timeAxisLabel("UTC"), hideOverlap: true, margin: TIME_LABEL_MARGIN },
    },
    yAxis: { type: "value", scale: true, name: data.unit, axisLabel: { formatter: "{value}" } },
    dataZoom: [{ type: "inside" }, { type: "slider", height: 22, bottom: 12 }],
    series: [
      {
        type: "line",
        name: data.title,
        data: points,
        showSymbol: data.points.length < 60,
        lineStyle: { width: 1.5 },
      },
    ],
  };
}
