import EChartsCore from "echarts-for-react/lib/core";
import { LineChart } from "echarts/charts";
import {
  DataZoomComponent,
  GridComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import type { ChartData } from "../../src/stores/explore.ts";
import { historyOption } from "./historyOption.ts";

// Only what a line chart with a time axis, tooltip and zoom needs: the explore page's chunk
// carries this, no other page does.
echarts.use([
  LineChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  MarkAreaComponent,
  MarkLineComponent,
  CanvasRenderer,
]);

// Under Vite the CommonJS module's default import can arrive as the module object (see
// ARCHITECTURE.md, platform facts): take its `default` when it has one.
const ReactECharts = (EChartsCore as unknown as { default?: typeof EChartsCore }).default ?? EChartsCore;

const CHART_HEIGHT = 320;

/** A channel's history as a line chart (ECharts, canvas), times in the account's zone. */
export default function HistoryChart({ data, zone }: { data: ChartData; zone: string }) {
  return (
    <ReactECharts
      echarts={echarts}
      option={historyOption(data, zone)}
      notMerge
      style={{ height: CHART_HEIGHT, width: "100%" }}
      opts={{ renderer: "canvas" }}
    />
  );
}
