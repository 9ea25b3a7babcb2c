import { createRequire } from "node:module";
import { escapeXml } from "../../src/domain/plainText.ts";
import type * as Charts from "echarts/charts";
import type * as Components from "echarts/components";
import type * as Core from "echarts/core";
import type { EChartsCoreOption } from "echarts/core";
import type * as Renderers from "echarts/renderers";
import type { ChartMark } from "../../src/domain/chartMarks.ts";
import { svgTimeMarks } from "./svgMarks.ts";
import { chartGaps, findGaps, gapLabel, gapText, type ChartGap } from "../../src/domain/chartGaps.ts";
import {
  axisTitles,
  chartInk,
  edgesOf,
  TIME_LABEL_MARGIN,
  timeAxisLabel,
  type ThresholdBand,
  type ThresholdEdge,
} from "../../src/domain/chartAxes.ts";

// ECharts draws the report's first chart on the server (its server-side SVG rendering), so a
// visitor sees it before any chart library arrives, kiosk screens never load one, and the PDF
// draws the same picture. Only the line chart, the grid, threshold bands and edges and the SVG
// renderer are registered (tree-shaken echarts/core): no tooltip, legend or zoom in a picture.
// Loaded for the first picture, not at start: importing it was 0.4–0.9 s of a core in every
// portal's start, also in the many that draw no picture (most browser tests' portals, scripts).
// Node requires these ES modules synchronously, so drawing stays a plain function.
const load = createRequire(import.meta.url);
let loaded: typeof Core | undefined;
function echartsCore(): typeof Core {
  if (loaded) return loaded;
  const echarts: typeof Core = load("echarts/core");
  const { LineChart }: typeof Charts = load("echarts/charts");
  const { GridComponent, MarkAreaComponent, MarkLineComponent }: typeof Components =
    load("echarts/components");
  const { SVGRenderer }: typeof Renderers = load("echarts/renderers");
  echarts.use([LineChart, GridComponent, MarkAreaComponent, MarkLineComponent, SVGRenderer]);
  return (loaded = echarts);
}

/** One line: its colour, its y axis (0 left, 1 right) and [epoch seconds, value] points, null for a gap. */
export interface SvgSeries {
  name: string;
  color: string;
  axis: number;
  /** The unit its values are in ('°F', '%RH'): the axes are titled with their lines' units. */
  unit: string;
  points: readonly (readonly [number, number | null])[];
  /** The width of the chart's buckets its points come from, 0 for raw readings (src/domain/chartGaps.ts). */
  bucketSeconds?: number;
}

export interface SvgChart {
  width: number;
  height: number;
  /** The x axis, epoch seconds. */
  start: number;
  end: number;
  series: readonly SvgSeries[];
  /** Threshold ranges as src/domain/chartAxes.ts's thresholdMarks draws them. */
  bands: readonly ThresholdBand[];
  edges: readonly ThresholdEdge[];
  /** Seconds to add to a time to get the wall time the axis labels show (the visitor's zone). */
  offsetOf: (at: number) => number;
  /** Dark text and grid lines on a dark background (kiosk theme=dark). */
  dark?: boolean;
  /** The zone the gaps' titles name their times in (the axis's, by offsetOf). */
  zone?: string;
  /** Alarms and pinned comments on the time axis (src/domain/chartMarks.ts; server/services/svgMarks.ts). */
  marks?: readonly ChartMark[];
}

/** The plot's margins: room above for the axes' unit titles, below for the time labels. */
const GRID = { left: 48, top: 28, bottom: 32 };

/** The visitor's wall time in ms, which ECharts then labels as UTC (useUTC). */
const wall = (chart: SvgChart, at: number) => (at + chart.offsetOf(at)) * 1000;

function bandsOn(chart: SvgChart, axis: number) {
  return chart.bands
    .filter((b) => b.axis === axis)
    .map((b) => [
      { ...(b.min === null ? {} : { yAxis: b.min }), itemStyle: { color: b.color, opacity: 0.45 } },
      b.max === null ? {} : { yAxis: b.max },
    ]);
}

/** The ECharts option of the picture: a line per channel, bands under the lines of their axis. */
export function svgOption(chart: SvgChart): EChartsCoreOption {
  const { ink, line, paper } = chartInk(!!chart.dark);
  const axes = [0, 1].filter((a) => a === 0 || chart.series.some((s) => s.axis === a));
  const firstOn = (axis: number) => chart.series.findIndex((s) => s.axis === axis);
  const titles = axisTitles(chart.series, axes);
  return {
    animation: false,
    useUTC: true,
    textStyle: { fontFamily: "system-ui, sans-serif" },
    // Room above the plot for the axes' unit titles, and below it for the time labels' margin.
    grid: { ...GRID, right: axes.length > 1 ? 48 : 16, containLabel: false },
    xAxis: {
      type: "time",
      min: wall(chart, chart.start),
      max: wall(chart, chart.end),
      // Wall times labelled as UTC: the visitor's clock.
      axisLabel: {
        color: ink,
        hideOverlap: true,
        margin: TIME_LABEL_MARGIN,
        formatter: timeAxisLabel("UTC"),
      },
      axisLine: { lineStyle: { color: ink } },
      splitLine: { show: false },
    },
    yAxis: axes.map((axis, i) => ({
      type: "value",
      scale: true,
      position: axis === 0 ? "left" : "right",
      name: titles[i],
      nameGap: 8,
      nameTextStyle: { color: ink, align: axis === 0 ? "right" : "left" },
      axisLabel: { color: ink },
      splitLine: { show: axis === 0, lineStyle: { color: line } },
    })),
    series: chart.series.map((s, i) => ({
      type: "line",
      name: s.name,
      yAxisIndex: axes.includes(s.axis) ? s.axis : 0,
      color: s.color,
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 1.5 },
      data: s.points.map(([at, v]) => [wall(chart, at), v]),
      // Each axis's bands once, on its first line, so overlapping copies do not darken them.
      ...(firstOn(s.axis) === i ? { markArea: { silent: true, data: bandsOn(chart, s.axis) } } : {}),
      markLine: edgesOf(chart.edges, i, ink, paper, chart.width),
    })),
  };
}

/** The chart's stretches without data (src/domain/chartGaps.ts), the same as the page's chart marks. */
export function svgGaps(chart: SvgChart): ChartGap[] {
  const window = { from: chart.start, to: chart.end };
  return chartGaps(
    chart.series.map((s) => ({ name: s.name, gaps: findGaps(s.points, window, s.bucketSeconds ?? 0) })),
  );
}

const xml = escapeXml;

/** Average width of a character of the marks' 11 px label, for deciding whether it fits. */
const CHAR_PX = 6.2;

/**
 * Each gap as a hatched grey band over the plot with its times in a <title> (a hover, and what
 * a screen reader says) and 'No data' at its top where the band is wide enough to hold it.
 */
function gapMarks(chart: SvgChart, gaps: readonly ChartGap[], toX: (at: number) => number): string {
  if (!gaps.length) return "";
  const { ink, paper } = chartInk(!!chart.dark);
  const [top, bottom] = [GRID.top, chart.height - GRID.bottom];
  const [left, right] = [toX(chart.start), toX(chart.end)];
  const marks = gaps.map((gap) => {
    const x0 = Math.max(left, Math.min(right, toX(gap.from)));
    const x1 = Math.max(left, Math.min(right, toX(gap.to)));
    const width = Math.max(1, x1 - x0);
    const label = [gapLabel(gap, chart.series.length), "No data"].find(
      (l) => l.length * CHAR_PX + 6 <= width,
    );
    // On a ground of the background's colour: a line of another channel may run through the band.
    const cx = x0 + width / 2;
    const w = label ? label.length * CHAR_PX + 8 : 0;
    const text = label
      ? `<rect x="${(cx - w / 2).toFixed(1)}" y="${top + 5}" width="${w.toFixed(1)}" height="16" rx="2" fill="${paper}" fill-opacity="0.85"/><text x="${cx.toFixed(1)}" y="${top + 17}" text-anchor="middle" font-size="11" fill="${ink}">${xml(label)}</text>`
      : "";
    const some = gap.names.length < chart.series.length ? ` (${gap.names.join(", ")})` : "";
    const title = `${gapText(gap, chart.zone ?? "UTC")}${some}`;
    return `<g class="no-data"><rect x="${x0.toFixed(1)}" y="${top}" width="${width.toFixed(1)}" height="${bottom - top}" fill="url(#no-data)" stroke="${ink}" stroke-opacity="0.25" stroke-dasharray="3 3"><title>${xml(title)}</title></rect>${text}</g>`;
  });
  // A light grey ground with diagonal hatching, in the ink's colour so it suits both themes.
  const pattern = `<defs><pattern id="no-data" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${ink}" fill-opacity="0.06"/><path d="M0 0V6" stroke="${ink}" stroke-opacity="0.22" stroke-width="1.5"/></pattern></defs>`;
  return pattern + marks.join("");
}

/** The chart as an SVG document (viewBox, so the page can stretch it to its own width). */
export function renderChartSvg(chart: SvgChart): string {
  const instance = echartsCore().init(null, null, {
    renderer: "svg",
    ssr: true,
    width: chart.width,
    height: chart.height,
  });
  try {
    instance.setOption(svgOption(chart));
    const svg = instance.renderToSVGString({ useViewBox: true });
    const toX = (at: number) => Number(instance.convertToPixel({ xAxisIndex: 0 }, wall(chart, at)));
    const marks = svgTimeMarks(
      chart.marks ?? [],
      { ...GRID, height: chart.height, zone: chart.zone ?? "UTC" },
      toX,
    );
    return svg.replace(/<\/svg>\s*$/, `${gapMarks(chart, svgGaps(chart), toX)}${marks}</svg>`);
  } finally {
    instance.dispose();
  }
}

/**
 * A short-lived cache of pictures by key (hash, size, scale, zone, data version): a page
 * opened by many visitors, or a kiosk wall, draws once per data change. Identical requests
 * that arrive together share one drawing; a failed one is forgotten.
 */
export function svgCache(ttlMs = 30_000, maxEntries = 500, clock: () => number = Date.now) {
  const entries = new Map<string, { at: number; svg: Promise<string> }>();
  return {
    get(key: string, draw: () => Promise<string>): Promise<string> {
      const now = clock();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs) return hit.svg;
      entries.delete(key);
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const svg = draw();
      entries.set(key, { at: now, svg });
      svg.catch(() => {
        if (entries.get(key)?.svg === svg) entries.delete(key);
      });
      return svg;
    },
    get size() {
      return entries.size;
    },
  };
}
