import { zoneClock } from "./zoneTime.ts";

/*
 * The y axes' titles of a report chart: the units of the lines drawn against each axis, so a
 * reader can tell which scale a line belongs to (°F on the left, %RH on the right). Used by
 * the page's interactive chart and by the server's picture of it, which must agree.
 */

/** A line of the chart: the axis it is drawn against (0 left, 1 right) and its unit. */
export interface AxisLine {
  axis: number;
  unit: string;
}

/** The title of each used axis, left first: its lines' distinct units, in order, joined. */
export function axisTitles(lines: readonly AxisLine[], axes: readonly number[]): string[] {
  return axes.map((axis) => {
    const units = lines.filter((l) => l.axis === axis && l.unit.trim()).map((l) => l.unit.trim());
    return [...new Set(units)].join(" / ");
  });
}

/** A line as the threshold marks read it: its channel's key and kind, its axis and colour. */
export interface MarkedLine {
  key: string;
  /** What it measures ('temperature', 'humidity'): a range's values convert by it. */
  kind: string;
  axis: number;
  color: string;
}

/** A threshold range; a null side is open, a null key applies it to every line. */
export interface MarkRange {
  name: string;
  key: string | null;
  min: number | null;
  max: number | null;
  color: string;
}

/** A shaded band across an axis, in that axis's values. */
export interface ThresholdBand {
  axis: number;
  name: string;
  min: number | null;
  max: number | null;
  color: string;
}

/** A dashed line at a range's closed side, drawn against one line (by index) in its colour. */
export interface ThresholdEdge {
  line: number;
  name: string;
  value: number;
  color: string;
}

/**
 * How each threshold range is drawn: a band across an axis where it applies to every line of
 * that axis and they all measure one kind, else dashed lines at its closed sides in the colour
 * of each line it applies to. A band says "anything in here is out of range", which is false
 * of a line the range does not apply to (an incubator at 37 °C inside a cold room's 'too warm'
 * band), and has one height where a range's values convert by kind (°C to °F, not %RH).
 * `convert` turns a range's stored value into a line's shown one (a temperature into the
 * visitor's scale).
 */
export function thresholdMarks(
  lines: readonly MarkedLine[],
  ranges: readonly MarkRange[],
  convert: (line: number) => (v: number) => number,
): { bands: ThresholdBand[]; edges: ThresholdEdge[] } {
  const bands: ThresholdBand[] = [];
  const edges: ThresholdEdge[] = [];
  const indexes = lines.map((_, i) => i);
  for (const range of ranges) {
    const applied = indexes.filter((i) => range.key === null || lines[i]!.key === range.key);
    for (const axis of new Set(applied.map((i) => lines[i]!.axis))) {
      const on = applied.filter((i) => lines[i]!.axis === axis);
      const side = (line: number, v: number | null) => (v === null ? null : convert(line)(v));
      const all = on.length === indexes.filter((i) => lines[i]!.axis === axis).length;
      if (all && new Set(on.map((i) => lines[i]!.kind)).size === 1) {
        const [first] = on as [number];
        bands.push({
          axis,
          name: range.name,
          min: side(first, range.min),
          max: side(first, range.max),
          color: range.color,
        });
        continue;
      }
      for (const line of on)
        for (const v of [range.min, range.max])
          if (v !== null)
            edges.push({ line, name: range.name, value: convert(line)(v), color: lines[line]!.color });
    }
  }
  return { bands, edges };
}

/**
 * Below this chart width (px) the threshold edges go unnamed: on a phone a name at the line's
 * right end sat over the lines it marks; the page's legend names the ranges instead.
 */
export const EDGE_NAMES_MIN_WIDTH = 600;

/**
 * A line's threshold edges as an ECharts markLine: dashed, in its colour, each named at its
 * right end in `ink`, outlined in `paper`, on a chart at least EDGE_NAMES_MIN_WIDTH wide (a
 * width not given counts as wide). Shared by the page's chart and the server's picture.
 */
export function edgesOf(
  edges: readonly ThresholdEdge[],
  line: number,
  ink: string,
  paper: string,
  width?: number,
) {
  const own = edges.filter((e) => e.line === line);
  if (!own.length) return undefined;
  return {
    silent: true,
    symbol: "none",
    data: own.map((e) => ({
      yAxis: e.value,
      name: e.name,
      lineStyle: { color: e.color, type: "dashed" as const, width: 1 },
      // Outlined in the background's colour: a name over a data line stays readable.
      label: {
        show: width === undefined || width >= EDGE_NAMES_MIN_WIDTH,
        formatter: e.name,
        position: "insideEndTop" as const,
        color: ink,
        fontSize: 10,
        textBorderColor: paper,
        textBorderWidth: 3,
      },
    })),
  };
}

/**
 * The time axis's labels, one clock for the page's charts and the server's picture: a time
 * ('4:00 PM', the portal's 12-hour clock), the date at the zone's midnight ('Nov 25') and the
 * year on New Year's ('2027'), as ECharts' own labels mark a day's and a year's start. Plain
 * spaces: the PDF's standard font has no narrow no-break space.
 */
export function timeAxisLabel(zone: string): (ms: number) => string {
  const date = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "short", day: "numeric" });
  const year = new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric" });
  const clock = new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", minute: "2-digit" });
  return (ms) => {
    const time = clock.format(ms).replace(/\s/gu, " ");
    if (time !== "12:00 AM") return time;
    const day = date.format(ms);
    return day === "Jan 1" ? year.format(ms) : day;
  };
}

/**
 * The gap between the plot's bottom edge and the time axis's labels, for every chart (the
 * report's, the explore page's and the server's picture). ECharts' 8 px left 2 px between a
 * time label near the y axis and that axis's lowest value label, which is centred on the same
 * edge ('12:00 PM' touched '30'); 12 px leaves 6. The grids give the 4 px from their plot.
 */
export const TIME_LABEL_MARGIN = 12;

/**
 * ECharts puts a time axis's ticks on the browser's clock (on UTC with `useUTC`), not on a
 * chosen zone's: a New York browser showing a UTC report ticked at 5:00, 9:00, ... UTC and
 * never at its midnight. So a chart in a zone draws the zone's wall clock as if it were UTC
 * (`useUTC: true`, labels by timeAxisLabel("UTC")), and its ticks fall on the zone's round
 * hours in any browser, as the server's picture does. Epoch seconds to that axis's ms; a
 * point keeps its real time beside it for the tooltip.
 */
export function wallClock(zone: string): (seconds: number) => number {
  const clock = zoneClock(zone);
  return (seconds) => (seconds + clock.offset(seconds)) * 1000;
}

/**
 * The chart's text, grid and background colours, light or on the dark theme (kiosk walls,
 * theme=dark); the dark background is Pico's.
 */
export function chartInk(dark: boolean): { ink: string; line: string; paper: string } {
  return dark
    ? { ink: "#d0d4da", line: "#3a3f47", paper: "#13171f" }
    : { ink: "#444", line: "#e4e4e4", paper: "#fff" };
}
