import { epochSeconds } from "../../src/domain/brand.ts";
import { TIME_LABEL_MARGIN, timeAxisLabel, wallClock } from "../../src/domain/chartAxes.ts";
import { findGaps, gapText, NO_DATA, withBreaks } from "../../src/domain/chartGaps.ts";
import type { ChartMark } from "../../src/domain/chartMarks.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";
import type { ChartData } from "../../src/stores/explore.ts";
import { markLines } from "../report/markLines.ts";

/**
 * The explore chart's ECharts option: one line, a time axis in the zone, tooltip, zoom by
 * wheel or slider; the stretches without readings as grey 'No data' bands (src/domain/chartGaps.ts,
 * as the report chart marks them) and the channel's alarms and pinned comments as dashed lines
 * (src/domain/chartMarks.ts). Apart from HistoryChart.tsx so it can be drawn without React.
 */
export function historyOption(data: ChartData, zone: string, marks: readonly ChartMark[] = []) {
  // [wall clock ms, value, epoch ms]: the zone's clock read as UTC, so ticks fall on its hours.
  const wall = wallClock(zone);
  const seconds = data.points.map(([at, value]) => [at / 1000, value] as [number, number]);
  const gaps = findGaps(seconds, { from: data.start, to: data.end }, data.bucketSeconds);
  const points = withBreaks(seconds, gaps).map(([at, value]) => [wall(at), value, at * 1000]);
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
      formatter: (params: { value: [number, number | null, number] }[]) => {
        const [, value, at] = params.find((p) => p.value[1] !== null)?.value ?? params[0]?.value ?? [0, 0, 0];
        const shown = value === null ? NO_DATA : `${value}${unit}`;
        return `${formatPushTime(epochSeconds(at / 1000), zone)}<br/><strong>${shown}</strong>`;
      },
    },
    xAxis: {
      type: "time",
      min: wall(data.start),
      max: wall(data.end),
      axisLabel: { formatter: timeAxisLabel("UTC"), hideOverlap: true, margin: TIME_LABEL_MARGIN },
    },
    yAxis: { type: "value", scale: true, name: data.unit, axisLabel: { formatter: "{value}" } },
    dataZoom: [{ type: "inside" }, { type: "slider", height: 22, bottom: 12 }],
    series: [
      {
        type: "line",
        name: data.title,
        data: points,
        connectNulls: false,
        showSymbol: data.points.length < 60,
        lineStyle: { width: 1.5 },
        markArea: {
          silent: true,
          data: gaps.map((g) => [
            {
              xAxis: wall(g.from),
              name: NO_DATA,
              itemStyle: { color: "rgba(128, 128, 128, 0.12)" },
              label: { position: "insideTop", color: "#555", fontSize: 11 },
              tooltip: { formatter: gapText(g, zone) },
            },
            { xAxis: wall(g.to) },
          ]),
        },
      },
      markLines(marks, zone, wall, (data.end - data.start) / 50),
    ],
  };
}
