import { useStore } from "@nanostores/react";
import EChartsCore from "echarts-for-react/lib/core";
import { LineChart } from "echarts/charts";
import {
  DataZoomInsideComponent,
  GridComponent,
  MarkAreaComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { useMemo } from "react";
import { $report, $view } from "../../src/stores/report.ts";
import { chartOption } from "./chartOption.ts";

// Only what the report's chart needs: lines, grid, tooltip, threshold bands and zoom by wheel
// or pinch. The legend is HTML (the page's), the slider is left out: each is kilobytes. SVG,
// like the server's first chart, so the hand-over does not change how the chart looks.
echarts.use([
  LineChart,
  GridComponent,
  TooltipComponent,
  MarkAreaComponent,
  DataZoomInsideComponent,
  SVGRenderer,
]);

// Under Vite the CommonJS module's default import can arrive as the module object (see
// ARCHITECTURE.md, platform facts): take its `default` when it has one.
const ReactECharts = (EChartsCore as unknown as { default?: typeof EChartsCore }).default ?? EChartsCore;

/** The interactive report chart; `onReady` once it has drawn (the server SVG then goes). */
export default function ReportChart({ onReady }: { onReady: () => void }) {
  const state = useStore($report);
  const view = useStore($view);
  const option = useMemo(
    () => (state.status === "ready" ? chartOption(state.report, state.data, view) : null),
    [state, view],
  );
  if (!option) return null;
  return (
    <ReactECharts
      echarts={echarts}
      option={option}
      notMerge
      style={{ height: "100%", width: "100%" }}
      opts={{ renderer: "svg" }}
      onChartReady={onReady}
    />
  );
}
