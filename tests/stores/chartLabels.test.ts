import { LineChart } from "echarts/charts";
import {
  DataZoomComponent,
  GridComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import type { EChartsCoreOption } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { describe, expect, it } from "vitest";
import { historyOption } from "../../islands/explore/historyOption.ts";
import { chartOption } from "../../islands/report/chartOption.ts";
import { svgOption } from "../../server/services/chartSvg.ts";
import { PublicReportSchema, ReportDataSchema } from "../../src/api/reports.ts";

/*
 * The three time charts (the report page's, the explore page's and the server's picture) drawn
 * as SVG the way the server draws its picture, and their labels measured: a time label near
 * the y axis must not touch that axis's lowest value label.
 */

echarts.use([
  LineChart,
  GridComponent,
  MarkAreaComponent,
  MarkLineComponent,
  DataZoomComponent,
  TooltipComponent,
  SVGRenderer,
]);

/** Noon UTC: a round hour, so the first time label sits on the y axis (the tightest case). */
const START = Date.UTC(2026, 10, 25, 12) / 1000;
const END = START + 86_400;
const points = Array.from({ length: 289 }, (_, i) => [START + i * 300, 30 + (i % 70)] as const);
const FONT = 12;

interface Label {
  text: string;
  anchor: string;
  x: number;
  /** The vertical centre (the labels are drawn with a central baseline). */
  y: number;
}

function draw(option: EChartsCoreOption, width: number, height: number): Label[] {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption(option);
    const svg = chart.renderToSVGString();
    const texts = svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g);
    return [...texts].map(([, attrs = "", text = ""]) => {
      const [, x = "0", y = "0"] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(attrs) ?? [];
      const dy = Number(/ y="([-\d.]+)"/.exec(attrs)?.[1] ?? 0);
      const anchor = /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? "start";
      return { text, anchor, x: Number(x), y: Number(y) + dy };
    });
  } finally {
    chart.dispose();
  }
}

/** Pixels between the lowest left value label's bottom and the time labels' top. */
function gapUnderValues(labels: Label[]): number {
  const values = labels.filter((l) => l.anchor === "end" && /^-?[\d.]+$/.test(l.text));
  const times = labels.filter((l) => l.anchor === "middle" && /\d:\d\d [AP]M|^[A-Z][a-z]{2} \d/.test(l.text));
  expect(values.length).toBeGreaterThan(1);
  expect(times.length).toBeGreaterThan(1);
  const lowest = Math.max(...values.map((l) => l.y));
  return Math.min(...times.map((l) => l.y)) - FONT / 2 - (lowest + FONT / 2);
}

const report = PublicReportSchema.parse({
  sensorMap: {
    A_W1_1200_0_1: {
      name: "Cold Room - Temperature",
      sensorName: "Cold Room",
      channelName: "Temperature",
      kind: "temperature",
      units: "°C",
      value: 4,
      lastReceived: END,
      macAddress: "A",
    },
  },
  reportDetails: { name: "Lab", timeInterval: 86_400, startDate: null, endDate: null },
  deviceList: [{ deviceName: "Lab", macAddress: "A" }],
  channelKeyList: [{ channelKey: "A_W1_1200_0_1", channelId: 1, macAddress: "A", color: "#e53935", axis: 0 }],
  channelIdList: [1],
  thresholdRangeAssociations: [],
  window: { start: START, end: END },
  csvExport: true,
});
const data = ReportDataSchema.parse({
  start: START,
  end: END,
  series: [
    {
      channelId: 1,
      channelKey: "A_W1_1200_0_1",
      bucketSeconds: 0,
      points,
      stats: null,
      excursions: [],
      secondsOutside: 0,
      excursionPrecision: 0,
    },
  ],
});

const CHARTS = [
  [
    "the server's picture",
    300,
    () =>
      svgOption({
        width: 0,
        height: 0,
        start: START,
        end: END,
        series: [{ name: "Cold Room", color: "#e53935", axis: 0, unit: "°F", points }],
        bands: [],
        edges: [],
        offsetOf: () => 0,
      }),
  ],
  ["the report page's chart", 300, () => chartOption(report, data, { scale: "C", zone: "UTC" })],
  [
    "the explore page's chart",
    320,
    () =>
      historyOption(
        {
          title: "Cold Room",
          unit: "°C",
          points: points.map(([at, v]) => [at * 1000, v]),
          bucketSeconds: 0,
          summary: null,
          start: START,
          end: END,
        },
        "UTC",
      ),
  ],
] as const;

describe("time axis labels", () => {
  describe.each(CHARTS)("%s", (_, height, option) => {
    it.each([360, 1240])(
      "leaves 6 px between the time labels and the lowest value label at %i px",
      (width) => {
        expect(gapUnderValues(draw(option(), width, height))).toBeGreaterThanOrEqual(6);
      },
    );
  });
});
