import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { getChannelHistory, type ChannelListEntry } from "../../src/api/deviceData.ts";
import type { ResponseOf } from "../../src/api/endpoint.ts";
import { RANGE_ORDER } from "../../src/domain/plan.ts";
import { $devicePrefs } from "../../src/stores/device.ts";
import {
  $explore,
  $exploreChart,
  $heldFrom,
  $rangeErrors,
  chartData,
  EXPLORE_LOAD_FAILED,
  EXPLORE_NOT_FOUND,
  loadHistory,
  RANGE_REQUIRED,
  rangeOf,
  shownValue,
  zonedInput,
  zonedToEpoch,
} from "../../src/stores/explore.ts";
import { unitIn } from "../../src/domain/device.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { $session } from "../../src/stores/session.ts";
import { CONFIG, fakeApi, fakeNavigation } from "./fakeApi.ts";
import { session } from "./sessions.ts";

const KEY = "001A2B3C4D01_00AA11BB22CC_100_0_1";
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
const TEMPERATURE: ChannelListEntry = {
  channelKey: KEY,
  name: "Cold Room - Temperature",
  sensorLabel: "Cold Room",
  channelName: "Temperature",
  kind: "temperature",
  units: "°C",
  isHidden: false,
};
const history = (over: Partial<ResponseOf<typeof getChannelHistory>> = {}) => ({
  channel: TEMPERATURE,
  deviceId: 1,
  deviceName: "Lab Base Station",
  start: NOW - 86_400,
  end: NOW,
  bucketSeconds: 0,
  points: [
    [NOW - 600, 4] as [number, number],
    [NOW - 300, 4.56] as [number, number],
    [NOW, -1.234] as [number, number],
  ],
  ...over,
});

/** Signs Ada in with her scale and zone. */
function signedIn(temperatureScale: "C" | "F", timezone = "America/New_York") {
  const info = session().sessionInformation;
  $session.set({ status: "signedIn", termsAccepted: true, info: { ...info, temperatureScale, timezone } });
}

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation(`/s/sensor-data/explore/${KEY}`);
  signedIn("C");
  $explore.set({ status: "loading" });
  $rangeErrors.set([]);
});
afterEach(() => {
  cleanStores($explore, $exploreChart, $devicePrefs);
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("times in the account's zone", () => {
  test("reads a wall-clock time in a named zone, summer and winter", () => {
    expect(zonedToEpoch("2026-07-01T12:00", "America/New_York")).toBe(Date.UTC(2026, 6, 1, 16) / 1000);
    expect(zonedToEpoch("2026-12-01T12:00", "America/New_York")).toBe(Date.UTC(2026, 11, 1, 17) / 1000);
    expect(zonedToEpoch("2026-12-01T12:00", "UTC")).toBe(Date.UTC(2026, 11, 1, 12) / 1000);
    expect(zonedToEpoch("2026-12-01T12:00", "Asia/Kolkata")).toBe(Date.UTC(2026, 11, 1, 6, 30) / 1000);
  });

  test("reads the hour after a spring-forward change as the zone's clocks show it", () => {
    // 2026-03-08 02:30 does not exist in New York; 03:30 EDT does.
    expect(zonedToEpoch("2026-03-08T03:30", "America/New_York")).toBe(Date.UTC(2026, 2, 8, 7, 30) / 1000);
  });

  test("writes an instant as the wall-clock text of a datetime-local input, and back", () => {
    const at = Date.UTC(2026, 10, 22, 12, 5) / 1000;
    expect(zonedInput(at, "America/New_York")).toBe("2026-11-22T07:05");
    expect(zonedInput(at, "UTC")).toBe("2026-11-22T12:05");
    expect(zonedToEpoch(zonedInput(at, "Europe/Berlin"), "Europe/Berlin")).toBe(at);
  });

  test("refuses what is not a wall-clock time", () => {
    for (const text of ["", "2026-11-22", "2026-11-22T7:05", "yesterday", "2026-11-22T07:05Z"])
      expect(zonedToEpoch(text, "UTC")).toBeNull();
  });
});

describe("the range", () => {
  test("ends now for the presets: 24 hours, 7 days, 30 days", () => {
    expect(rangeOf({ preset: "24h", from: "", to: "" }, NOW, "UTC")).toEqual({
      ok: true,
      start: NOW - 86_400,
      end: NOW,
    });
    expect(rangeOf({ preset: "7d", from: "", to: "" }, NOW, "UTC")).toMatchObject({
      start: NOW - 7 * 86_400,
    });
    expect(rangeOf({ preset: "30d", from: "", to: "" }, NOW, "UTC")).toMatchObject({
      start: NOW - 30 * 86_400,
    });
  });

  test("reads a custom range in the zone and needs both ends, in order", () => {
    // New York leaves summer time on November 1, 2026: the day is 25 hours long.
    expect(
      rangeOf(
        { preset: "custom", from: "2026-11-01T00:00", to: "2026-11-02T00:00" },
        NOW,
        "America/New_York",
      ),
    ).toEqual({ ok: true, start: Date.UTC(2026, 10, 1, 4) / 1000, end: Date.UTC(2026, 10, 2, 5) / 1000 });
    expect(rangeOf({ preset: "custom", from: "", to: "" }, NOW, "UTC")).toEqual({
      ok: false,
      errors: [
        { field: "from", message: RANGE_REQUIRED },
        { field: "to", message: RANGE_REQUIRED },
      ],
    });
    expect(
      rangeOf({ preset: "custom", from: "2026-11-02T00:00", to: "2026-11-01T00:00" }, NOW, "UTC"),
    ).toEqual({
      ok: false,
      errors: [{ field: "from", message: RANGE_ORDER }],
    });
  });
});

describe("loading a channel's history", () => {
  test("asks for the range in epoch seconds and shows the channel", async () => {
    api.on(getChannelHistory, history());
    await loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW + 0.7);
    expect(api.calls(getChannelHistory)).toEqual([
      {
        method: "GET",
        url: `${CONFIG.apiBase}/api/v1/device-data/channel-history/${KEY}`,
        as: "query",
        fields: { start: String(NOW - 86_400), end: String(NOW) },
      },
    ]);
    expect($explore.get()).toEqual({ status: "ready", history: history() });
  });

  test("says a missing or foreign channel was not found, and any other failure that it could not load", async () => {
    api.on(getChannelHistory, { status: 404, errors: [{ field: null, message: "Not found." }] });
    await loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW);
    expect($explore.get()).toEqual({ status: "error", message: EXPLORE_NOT_FOUND, notFound: true });
    api.on(getChannelHistory, { status: 500, errors: [{ field: null, message: "Unexpected error." }] });
    await loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW);
    expect($explore.get()).toEqual({ status: "error", message: EXPLORE_LOAD_FAILED, notFound: false });
  });

  test("passes on a refusal, and a refused range beside the range", async () => {
    const refusal = "You do not have permission to do that.";
    api.on(getChannelHistory, { status: 403, errors: [{ field: null, message: refusal }] });
    await loadHistory(KEY, { preset: "custom", from: "2020-01-01T00:00", to: "2020-01-02T00:00" }, NOW);
    expect($explore.get()).toEqual({ status: "error", message: refusal, notFound: false });
    api.on(getChannelHistory, { status: 400, errors: [{ field: "start", message: RANGE_ORDER }] });
    await loadHistory(KEY, { preset: "custom", from: "2026-01-01T00:00", to: "2026-01-02T00:00" }, NOW);
    expect($rangeErrors.get()).toEqual([{ field: "from", message: RANGE_ORDER }]);
  });

  test("says where the shown readings begin when the plan held back older ones asked for", async () => {
    const edge = NOW - 3 * 86_400;
    api.on(getChannelHistory, history({ start: edge, end: NOW }));
    await loadHistory(KEY, { preset: "30d", from: "", to: "" }, NOW);
    expect($heldFrom.get()).toBe(edge);
    api.on(getChannelHistory, history({ start: NOW - 86_400, end: NOW }));
    await loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW);
    expect($heldFrom.get()).toBeNull();
  });

  test("sends nothing for a custom range it refuses and keeps the chart shown", async () => {
    $explore.set({ status: "ready", history: history() });
    await loadHistory(KEY, { preset: "custom", from: "2026-11-02T00:00", to: "" }, NOW);
    expect(api.calls(getChannelHistory)).toEqual([]);
    expect($rangeErrors.get()).toEqual([{ field: "to", message: RANGE_REQUIRED }]);
    expect($explore.get().status).toBe("ready");
  });

  test("lets the last question's answer win", async () => {
    let first = true;
    api.on(getChannelHistory, async () => {
      if (!first) return history({ deviceName: "Second" });
      first = false;
      await new Promise((r) => setTimeout(r, 30));
      return history({ deviceName: "First" });
    });
    await Promise.all([
      loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW),
      loadHistory(KEY, { preset: "7d", from: "", to: "" }, NOW),
    ]);
    expect($explore.get()).toMatchObject({ history: { deviceName: "Second" } });
  });
});

describe("what the chart shows", () => {
  test("shows temperatures in the person's scale, rounded C 2 / F 1 decimals", () => {
    expect(shownValue("temperature", -1.234, "C")).toBe(-1.23);
    expect(shownValue("dew_point", 4, "F")).toBe(39.2);
    expect(shownValue("humidity", 45.678, "F")).toBe(45.68);
    expect(unitIn("heat_index", "°C", "F")).toBe("°F");
    expect(unitIn("humidity", "%", "F")).toBe("%");
    expect(unitIn("co2", null, "C")).toBe("");
  });

  test("draws points in milliseconds with the lowest, highest and latest reading", () => {
    expect(chartData(history(), "F")).toEqual({
      title: "Cold Room - Temperature",
      unit: "°F",
      points: [
        [(NOW - 600) * 1000, 39.2],
        [(NOW - 300) * 1000, 40.2],
        [NOW * 1000, 29.8],
      ],
      bucketSeconds: 0,
      summary: { count: 3, low: 29.8, high: 40.2, latest: [NOW * 1000, 29.8] },
      start: NOW - 86_400,
      end: NOW,
    });
    expect(chartData(history({ points: [] }), "C").summary).toBeNull();
  });

  test("follows the account's scale", async () => {
    api.on(getChannelHistory, history());
    const off = $exploreChart.listen(() => {});
    await loadHistory(KEY, { preset: "24h", from: "", to: "" }, NOW);
    expect($exploreChart.get()?.unit).toBe("°C");
    signedIn("F");
    expect($exploreChart.get()?.unit).toBe("°F");
    expect($exploreChart.get()?.points[0]?.[1]).toBe(39.2);
    off();
  });
});
