import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { PublicReportSchema, type PublicReport } from "../../src/api/reports.ts";
import type { ChannelCompliance } from "../../src/api/reportCompliance.ts";
import {
  $compliance,
  COMPLIANCE_REFRESH_MS,
  loadCompliance,
  resetCompliance,
} from "../../src/stores/reportCompliance.ts";
import { complianceCells } from "../../src/scripts/complianceRender.ts";

const T = 1_773_273_600; // Mar 12, 2026 00:00 UTC
const REPORT: PublicReport = PublicReportSchema.parse({
  sensorMap: {
    A_T: {
      name: "Cold Room - Temperature",
      sensorName: "Cold Room",
      channelName: "Temperature",
      kind: "temperature",
      units: "°C",
      value: 4,
      lastReceived: T,
      macAddress: "A",
    },
    A_H: {
      name: "Cold Room - Humidity",
      sensorName: "Cold Room",
      channelName: "Humidity",
      kind: "humidity",
      units: "%",
      value: 50,
      lastReceived: T,
      macAddress: "A",
    },
  },
  reportDetails: { name: "Audit", timeInterval: 0, startDate: T, endDate: T + 21_600 },
  deviceList: [{ deviceName: "Lab", macAddress: "A" }],
  channelKeyList: [
    { channelKey: "A_T", channelId: 1, macAddress: "A", color: "#e53935", axis: 0 },
    { channelKey: "A_H", channelId: 2, macAddress: "A", color: "#1e88e5", axis: 1 },
  ],
  channelIdList: [1, 2],
  thresholdRangeAssociations: [
    {
      thresholdRange: {
        id: 7,
        name: "Too warm",
        channelKey: "A_T",
        minValue: 8,
        maxValue: null,
        color: "#ff0000",
      },
    },
  ],
  window: { start: T, end: T + 21_600 },
  csvExport: true,
});
const TEMPERATURE: ChannelCompliance = {
  channelId: 1,
  channelKey: "A_T",
  readings: 360,
  seconds: 21_600,
  mkt: 4.678,
  min: { value: 1, at: T + 60 },
  max: { value: 12, at: T + 12_000 },
  ranges: [
    {
      thresholdRangeId: 7,
      seconds: 1200,
      excursions: 1,
      longest: { start: T + 12_000, end: T + 13_200, duration: 1200 },
    },
  ],
  excursions: 1,
  longest: { thresholdRangeId: 7, start: T + 12_000, end: T + 13_200, duration: 1200 },
};
const FIGURES = { start: T, end: T + 21_600, activationEnergy: 83.144, channels: [TEMPERATURE] };

describe("the compliance row of a channel", () => {
  test("shows a temperature's MKT to two decimals, extremes with times, time in range and the longest excursion", () => {
    expect(complianceCells(TEMPERATURE, REPORT, { scale: "F", zone: "UTC" })).toEqual([
      "Cold Room - Temperature",
      "40.42°F",
      "33.8°F at Mar 12, 2026, 12:01 AM",
      "53.6°F at Mar 12, 2026, 3:20 AM",
      "Too warm: 20 min (5.6 %)",
      "1",
      "20 min from Mar 12, 2026, 3:20 AM",
    ]);
  });

  test("shows another kind of channel's extremes and time in range only", () => {
    const humidity = {
      ...TEMPERATURE,
      channelKey: "A_H",
      channelId: 2,
      mkt: null,
      ranges: [],
      min: { value: 40.123, at: T },
      max: { value: 60, at: T + 60 },
    };
    expect(complianceCells(humidity, REPORT, { scale: "C", zone: "UTC" })).toEqual([
      "Cold Room - Humidity",
      "—",
      "40.12% at Mar 12, 2026, 12:00 AM",
      "60% at Mar 12, 2026, 12:01 AM",
      "—",
      "—",
      "—",
    ]);
  });
});

describe("loading the figures", () => {
  const calls: string[] = [];
  beforeEach(() => {
    calls.length = 0;
    resetCompliance();
    vi.stubGlobal("location", new URL("https://web.test/public/report/abc123"));
  });
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number) =>
    vi.stubGlobal("fetch", async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify({ success: status === 200, data: status === 200 ? FIGURES : [] }), {
        status,
      });
    });

  test("asks once, then not again within five minutes", async () => {
    answer(200);
    await loadCompliance("abc123", 1000);
    await loadCompliance("abc123", 1000 + COMPLIANCE_REFRESH_MS - 1);
    expect(calls).toEqual(["https://web.test/api/v1/device-data/public/report/compliance/abc123"]);
    expect($compliance.get()).toEqual({ status: "ready", value: FIGURES });
    await loadCompliance("abc123", 1000 + COMPLIANCE_REFRESH_MS);
    expect(calls).toHaveLength(2);
  });

  test("keeps the figures shown when a later ask fails, and says failed when none came", async () => {
    answer(500);
    await loadCompliance("abc123", 0);
    expect($compliance.get()).toEqual({ status: "failed" });
    answer(200);
    await loadCompliance("abc123", 1);
    answer(500);
    await loadCompliance("abc123", 1 + COMPLIANCE_REFRESH_MS);
    expect($compliance.get()).toEqual({ status: "ready", value: FIGURES });
  });
});
