import EChartsCore from "echarts-for-react/lib/core";
import { LineChart } from "echarts/charts";
import { DataZoomComponent, GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { epochSeconds } from "../../src/domain/brand.ts";
import { timeAxisLabel, wallClock } from "../../src/domain/chartAxes.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";
import type { ChartData } from "../../src/stores/explore.ts";

// Only what a line chart with a time axis, tooltip and zoom needs: the explore page's chunk
// carries this, no other page does.
echarts.use([LineChart, GridComponent, TooltipComponent, DataZoomComponent, CanvasRenderer]);

// Under Vite the CommonJS module's default import can arrive as the module object (see
// ARCHITECTURE.md, platform facts): take its `default` when it has one.
const ReactECharts = (EChartsCore as unknown as { default?: typeof EChartsCore }).default ?? EChartsCore;

const CHART_HEIGHT = 320;

/** The chart's settings: one line, a time axis in the zone, tooltip, zoom by wheel or slider. */
function optionOf(data: ChartData, zone: string) {
  // [wall clock ms, value, epoch ms]: the zone's clock read as UTC, so ticks fall on its hours.
  const wall = wallClock(zone);
  const points = data.points.map(([at, value]) => [wall(at / 1000), value, at]);
  const unit = data.unit ? ` ${data.unit}` : "";
  return {
    animation: false,
    useUTC: true,
    grid: { left: 56, right: 20, top: 28, bottom: 72 },
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
      axisLabel: { formatter: timeAxisLabel("UTC"), hideOverlap: true },
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

/** A channel's history as a line chart (ECharts, canvas), times in the account's zone. */
export default function HistoryChart({ data, zone }: { data: ChartData; zone: string }) {
  return (
    <ReactECharts
      echarts={echarts}
      option={optionOf(data, zone)}
      notMerge
      style={{ height: CHART_HEIGHT, width: "100%" }}
      opts={{ renderer: "canvas" }}
    />
  );
}
