import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  PublicReportSchema,
  ReportDataSchema,
  type PublicReport,
  type ReportData,
} from "../../src/api/reports.ts";
import { isKnownTimezone } from "../../src/domain/timezones.ts";
import {
  $report,
  $view,
  followReport,
  loadReport,
  nextDelay,
  periodOf,
  searchWith,
  setFetcher,
  setZone,
  shown,
  viewOf,
} from "../../src/stores/report.ts";
import { formatAge, formatDuration, formatStamp, windowText, ZONES } from "../../src/domain/reportText.ts";

const HASH = "abc123";
const REPORT: PublicReport = PublicReportSchema.parse({
  sensorMap: {
    "001A_W1_1200_0_1": {
      name: "Cold Room - Temperature",
      sensorName: "Cold Room",
      channelName: "Temperature",
      kind: "temperature",
      units: "°C",
      value: 4,
      lastReceived: 1_700_000_000,
      macAddress: "001A",
    },
  },
  reportDetails: { name: "Lab", timeInterval: 86_400, startDate: null, endDate: null },
  deviceList: [{ deviceName: "Lab", macAddress: "001A" }],
  channelKeyList: [
    { channelKey: "001A_W1_1200_0_1", channelId: 1, macAddress: "001A", color: "#e53935", axis: 0 },
  ],
  channelIdList: [1],
  thresholdRangeAssociations: [],
  window: { start: 1_699_913_600, end: 1_700_000_000 },
  csvExport: true,
});
const DATA: ReportData = ReportDataSchema.parse({ start: 1_699_913_600, end: 1_700_000_000, series: [] });

const ok = (data: unknown) =>
  new Response(JSON.stringify({ success: true, data }), { headers: { "content-type": "application/json" } });
const notFound = () => new Response(JSON.stringify({ success: false, data: [] }), { status: 404 });

/** A fake portal: answers by path, and can be switched to refuse or to drop the connection. */
function portal() {
  let mode: "up" | "gone" | "down" = "up";
  const urls: string[] = [];
  setFetcher(async (url) => {
    urls.push(url);
    if (mode === "down") throw new TypeError("Failed to fetch");
    if (mode === "gone") return notFound();
    return ok(url.includes("/report/data/") ? DATA : REPORT);
  });
  return { urls, set: (m: typeof mode) => (mode = m) };
}

beforeEach(() => {
  vi.stubGlobal("location", new URL("https://web.test/public/report/abc123"));
});
afterEach(() => {
  cleanStores($report, $view);
  $report.set({ status: "loading" });
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the address's scale and zone", () => {
  test.each([
    ["?tempScale=C&timezone=Europe/Paris", { scale: "C", zone: "Europe/Paris" }],
    ["?tempScale=c&timezone=America/New_York", { scale: "C", zone: "America/New_York" }],
    ["?tempScale=K&timezone=Mars/Olympus", { scale: "F", zone: "UTC" }],
    ["", { scale: "F", zone: "UTC" }],
  ])("reads %s (unknown values fall back to F and UTC)", (search, view) => {
    expect(viewOf(search)).toEqual(view);
  });

  test("keeps kiosk and theme when it writes the view into the address", () => {
    const search = searchWith("?kiosk=1&theme=dark&tempScale=F", { scale: "C", zone: "Asia/Tokyo" });
    expect(new URLSearchParams(search).get("kiosk")).toBe("1");
    expect(new URLSearchParams(search).get("theme")).toBe("dark");
    expect(new URLSearchParams(search).get("tempScale")).toBe("C");
    expect(new URLSearchParams(search).get("timezone")).toBe("Asia/Tokyo");
  });

  test("offers about 80 zones the runtime knows, UTC first", () => {
    expect(ZONES[0]).toBe("UTC");
    expect(ZONES.length).toBeGreaterThanOrEqual(75);
    expect(new Set(ZONES).size).toBe(ZONES.length);
    expect(ZONES.filter((z) => !isKnownTimezone(z))).toEqual([]);
  });

  test("turns an unknown zone chosen later into UTC", () => {
    setZone("Nowhere/Atlantis");
    expect($view.get().zone).toBe("UTC");
  });
});

describe("values and times as the visitor reads them", () => {
  test.each([
    [4, "temperature", "F", 39.2],
    [4, "temperature", "C", 4],
    [-18.26, "dew_point", "C", -18.26],
    [45.678, "humidity", "F", 45.68],
  ] as const)("shows %s of a %s channel in %s as %s", (value, kind, scale, expected) => {
    expect(shown(value, kind, scale)).toBe(expected);
  });

  test.each([
    [30, "30 s"],
    [45 * 60, "45 min"],
    [80 * 60, "1 h 20 min"],
    [2 * 86_400 + 3 * 3600 + 60, "2 d 3 h"],
  ])("writes %s seconds as '%s'", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  test.each([
    [10, "just now"],
    [5 * 60 + 20, "5 min ago"],
    [2 * 3600 + 30 * 60, "2 h ago"],
    [3 * 86_400 + 4 * 3600, "3 d ago"],
  ])("writes an age of %s seconds as '%s'", (seconds, text) => {
    expect(formatAge(seconds)).toBe(text);
  });

  test.each([
    ["a day", 86_400, "UTC", "Nov 21, 3:00 PM – Nov 22, 3:00 PM · UTC"],
    ["an hour", 3600, "America/New_York", "Nov 22, 9:00 AM – Nov 22, 10:00 AM · America/New York"],
    ["a week", 7 * 86_400, "UTC", "Nov 15, 2026 – Nov 22, 2026 · UTC"],
  ])("says which %s a window spans and in which zone, not its length again", (_, seconds, zone, text) => {
    const end = Date.UTC(2026, 10, 22, 15) / 1000;
    expect(windowText({ start: end - seconds, end }, zone)).toBe(text);
  });

  test("says a fixed window's first and last day in the zone", () => {
    const start = Date.UTC(2026, 9, 26) / 1000;
    const end = Date.UTC(2026, 10, 1) / 1000;
    expect(windowText({ start, end }, "UTC")).toBe("Oct 26, 2026 – Nov 01, 2026 · UTC");
  });

  test("writes times in the chosen zone", () => {
    const at = Date.UTC(2026, 10, 22, 15, 7) / 1000;
    expect(formatStamp(at, "UTC")).toBe("Nov 22, 2026, 3:07 PM");
    expect(formatStamp(at, "Asia/Tokyo")).toBe("Nov 23, 2026, 12:07 AM");
  });
});

describe("loading and refreshing", () => {
  test("loads the report and its chart data from the API's base", async () => {
    const api = portal();
    expect(await loadReport(HASH, { refresh: false })).toBe(true);
    expect($report.get()).toMatchObject({ status: "ready", report: { reportDetails: { name: "Lab" } } });
    expect(api.urls).toEqual([
      "https://web.test/api/v1/device-data/public/report/abc123",
      "https://web.test/api/v1/device-data/public/report/data/abc123",
    ]);
  });

  test("marks refreshes so they are not counted as views", async () => {
    const api = portal();
    await loadReport(HASH, { refresh: true });
    expect(api.urls[0]).toBe("https://web.test/api/v1/device-data/public/report/abc123?refresh=1");
  });

  test("marks the report invalid when its first load fails (spec section 4)", async () => {
    const api = portal();
    api.set("down");
    await loadReport(HASH, { refresh: false });
    expect($report.get()).toEqual({ status: "invalid" });
  });

  test("keeps the last chart while the network is down, stale since the last answer", async () => {
    const api = portal();
    await loadReport(HASH, { refresh: false, now: () => 1000 });
    api.set("down");
    await loadReport(HASH, { refresh: true, now: () => 2000 });
    await loadReport(HASH, { refresh: true, now: () => 3000 });
    expect($report.get()).toMatchObject({ status: "ready", staleSince: 1000 });
    api.set("up");
    await loadReport(HASH, { refresh: true, now: () => 4000 });
    expect($report.get()).toMatchObject({ status: "ready", staleSince: null, fetchedAt: 4000 });
  });

  test("still shows a link that is gone (deleted, paused, expired) as invalid", async () => {
    const api = portal();
    await loadReport(HASH, { refresh: false });
    api.set("gone");
    await loadReport(HASH, { refresh: true });
    expect($report.get()).toEqual({ status: "invalid" });
  });

  test.each([
    [0, 30_000, 30_000],
    [1, 30_000, 5_000],
    [2, 30_000, 10_000],
    [5, 30_000, 60_000],
    [9, 30_000, 60_000],
    [1, 1_000, 1_000],
    [3, 1_000, 4_000],
  ])("waits after %s failures with a %s ms period %s ms", (failures, period, wait) => {
    expect(nextDelay(failures, period)).toBe(wait);
  });

  test.each([
    ["?kiosk=1", 30_000],
    ["?kiosk=1&refreshSeconds=1", 1_000],
    ["?refreshSeconds=0", 30_000],
    ["?refreshSeconds=9999", 30_000],
  ])("takes the refresh period of %s as %s ms", (search, period) => {
    expect(periodOf(search)).toBe(period);
  });

  test("refreshes every 30 seconds with one timer, and stops when asked", async () => {
    vi.useFakeTimers();
    const api = portal();
    const stop = followReport(HASH, {});
    await vi.advanceTimersByTimeAsync(0);
    expect(api.urls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(api.urls).toHaveLength(4);
    expect(api.urls[2]).toContain("?refresh=1");
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  test("stops refreshing a report that became invalid", async () => {
    vi.useFakeTimers();
    const api = portal();
    followReport(HASH, {});
    await vi.advanceTimersByTimeAsync(0);
    api.set("gone");
    await vi.advanceTimersByTimeAsync(30_000);
    expect($report.get().status).toBe("invalid");
    expect(vi.getTimerCount()).toBe(0);
  });
});
