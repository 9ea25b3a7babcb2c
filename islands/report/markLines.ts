import { MARK_COLORS, markTitle, type ChartMark } from "../../src/domain/chartMarks.ts";

/**
 * Alarms and comments as dashed lines at their times (on a series of their own, like the gaps),
 * each with its short label along its top and its whole story as the line's name (its tooltip).
 * A label is left out when the next mark is closer than `apart` seconds: the later one's shows.
 */
export function markLines(
  marks: readonly ChartMark[],
  zone: string,
  wall: (t: number) => number,
  apart: number,
) {
  return {
    type: "line" as const,
    name: "",
    data: [],
    markLine: {
      symbol: "none",
      data: marks.map((m, i) => ({
        xAxis: wall(m.at),
        name: markTitle(m, zone),
        lineStyle: { color: MARK_COLORS[m.kind], type: "dashed" as const },
        label: {
          show: (marks[i + 1]?.at ?? Infinity) - m.at >= apart,
          formatter: m.label,
          position: "insideEndTop" as const,
          color: MARK_COLORS[m.kind],
          fontSize: 10,
        },
      })),
    },
  };
}
