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
import { useEffect, useRef } from "react";
import type { ChartMark } from "../../src/domain/chartMarks.ts";
import type { ChartData } from "../../src/stores/explore.ts";
import { historyOption } from "./historyOption.ts";

// Only what a line chart with a time axis, tooltip and zoom, its gap bands and its alarm and
// comment lines need: the explore page's chunk carries this, no other page does.
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

interface Props {
  data: ChartData;
  zone: string;
  marks?: readonly ChartMark[];
  /** A click on the plot picks the time of the nearest reading (epoch seconds). */
  onPick?: (at: number) => void;
}

/** A channel's history as a line chart (ECharts, canvas), times in the account's zone. */
export default function HistoryChart({ data, zone, marks = [], onPick }: Props) {
  // The chart's click handler is bound once; it calls the latest onPick and reads the points
  // the chart draws now.
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);
  const ready = (chart: echarts.ECharts) => {
    chart.getZr().on("click", (e) => {
      if (!pick.current) return;
      const [x] = chart.convertFromPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY]) as number[];
      const [line] = chart.getOption()["series"] as { data: [number, number | null, number][] }[];
      let best: [number, number | null, number] | undefined;
      for (const p of line?.data ?? [])
        if (p[1] !== null && (!best || Math.abs(p[0] - x!) < Math.abs(best[0] - x!))) best = p;
      if (best) pick.current(best[2] / 1000);
    });
  };
  return (
    <ReactECharts
      echarts={echarts}
      option={historyOption(data, zone, marks)}
      notMerge
      onChartReady={ready}
      style={{ height: CHART_HEIGHT, width: "100%" }}
      opts={{ renderer: "canvas" }}
    />
  );
}
