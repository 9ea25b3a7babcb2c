import { describe, expect, it } from "vitest";
import { epochSeconds } from "../../src/domain/brand.ts";
import { parseGroupKey } from "../../src/domain/channelKey.ts";
import {
  deviceStatus,
  isAdjustableKind,
  isTemperatureKind,
  publicDevicePath,
} from "../../src/domain/device.ts";
import {
  PLAN_MESSAGES,
  planLimit,
  planLimitMessage,
  dataAgeLimitSeconds,
  dataAgeText,
  dataRange,
  oldestAllowed,
  planAllows,
} from "../../src/domain/plan.ts";

const NOW = epochSeconds(1_795_348_800);
const TWO_YEARS = { dataAgeLimitUnit: "YEAR", dataAgeLimitValue: 2 };

describe("the device list's status", () => {
  it.each([
    [0, 600, "pushing"],
    [900, 600, "pushing"],
    [901, 600, "late"],
    [1800, 600, "late"],
    [1801, 600, "offline"],
    [30, 0, "pushing"],
    [91, 0, "late"],
  ])("calls a device whose last push is %i s old with a %i s interval %s", (age, interval, status) => {
    expect(deviceStatus(epochSeconds(NOW - age), interval, NOW)).toBe(status);
  });

  it("calls a device that never pushed offline", () => {
    expect(deviceStatus(null, 600, NOW)).toBe("offline");
  });
});

describe("device page rules", () => {
  it("puts RA devices' public pages under /p/device and the others under /public/device", () => {
    expect(publicDevicePath("RA12", "abc")).toBe("/p/device/abc");
    expect(publicDevicePath("ramax", "abc")).toBe("/p/device/abc");
    expect(publicDevicePath("WS2", "abc")).toBe("/public/device/abc");
  });

  it.each([
    ["temperature", true, true],
    ["humidity", true, false],
    ["heat_index", true, true],
    ["dew_point", true, true],
    ["voltage", true, false],
    ["computed_analog", true, false],
    ["co2", false, false],
  ])("lets %s be adjusted: %s (a temperature: %s)", (kind, adjustable, temperature) => {
    expect(isAdjustableKind(kind)).toBe(adjustable);
    expect(isTemperatureKind(kind)).toBe(temperature);
  });

  it("reads a channel-group key and refuses a channel key or a malformed one", () => {
    expect(parseGroupKey("00:1A_W1A001_1200_0")).toEqual({
      deviceAddress: "00:1A",
      sensorAddress: "W1A001",
      groupType: 1200,
      groupIndex: 0,
    });
    for (const bad of ["00:1A_W1A001_1200_0_1", "a_b_c_d", "", "a_b_1_2_"])
      expect(parseGroupKey(bad)).toBeNull();
  });
});

describe("plan features", () => {
  it("allows a feature only when the tier says true", () => {
    expect(planAllows({ publicUrl: true }, "publicUrl")).toBe(true);
    expect(planAllows({ publicUrl: "true" }, "publicUrl")).toBe(false);
    expect(planAllows({}, "csvExport")).toBe(false);
    expect(PLAN_MESSAGES.csvExport).toBe(
      "Downloading device data is not included in your subscription plan.",
    );
  });

  it.each([
    [{ reports: 5 }, 5],
    [{ reports: "12" }, 12],
    [{ reports: 0 }, 0],
    [{}, null],
    [{ reports: null }, null],
    [{ reports: "" }, null],
    [{ reports: -1 }, null],
    [{ reports: 2.5 }, null],
    [{ reports: "unlimited" }, null],
  ])("reads the report limit of %o as %s", (limits, limit) => {
    expect(planLimit(limits, "reports")).toBe(limit);
  });

  it("says how many reports or users the plan includes", () => {
    expect(planLimitMessage("reports", 5)).toBe(
      "Your subscription plan includes 5 reports; delete one to make another.",
    );
    expect(planLimitMessage("users", 1)).toBe(
      "Your subscription plan includes 1 user, and every place is taken (an invitation holds one until it is used or expires).",
    );
  });

  it.each([
    [{ dataAgeLimitUnit: "DAY", dataAgeLimitValue: 30 }, 30 * 86400],
    [{ dataAgeLimitUnit: "weeks", dataAgeLimitValue: 2 }, 14 * 86400],
    [{ dataAgeLimitUnit: "MONTH", dataAgeLimitValue: 1 }, 30 * 86400],
    [TWO_YEARS, 2 * 365 * 86400],
    [{}, null],
    [{ dataAgeLimitUnit: "YEAR", dataAgeLimitValue: 0 }, null],
    [{ dataAgeLimitUnit: "EON", dataAgeLimitValue: 1 }, null],
  ])("keeps data for %o: %s seconds", (limits, seconds) => {
    expect(dataAgeLimitSeconds(limits)).toBe(seconds);
  });

  it("serves data from two calendar years back (UTC) on a two-year plan", () => {
    expect(new Date(NOW * 1000).toISOString()).toBe("2026-11-22T12:00:00.000Z");
    expect(new Date(oldestAllowed(TWO_YEARS, NOW)! * 1000).toISOString()).toBe("2024-11-22T12:00:00.000Z");
    expect(oldestAllowed({}, NOW)).toBeNull();
  });

  it.each([
    [TWO_YEARS, "2 years"],
    [{ dataAgeLimitUnit: "MONTHS", dataAgeLimitValue: 1 }, "1 month"],
    [{ dataAgeLimitUnit: "day", dataAgeLimitValue: 30 }, "30 days"],
    [{ dataAgeLimitUnit: null, dataAgeLimitValue: null }, "No limit"],
    [{ dataAgeLimitUnit: "YEAR", dataAgeLimitValue: 0 }, "No limit"],
  ])("words the plan's data age %j as %j", (limits, text) => {
    expect(dataAgeText(limits)).toBe(text);
  });
});

describe("the range of a download or chart", () => {
  const range = (start: number | null, end: number | null, limits: Record<string, unknown> = TWO_YEARS) =>
    dataRange(limits, { start, end }, NOW);

  it("is the last 24 hours by default, and ends no later than now", () => {
    expect(range(null, null)).toEqual({ ok: true, start: NOW - 86400, end: NOW });
    expect(range(NOW - 60, NOW + 3600)).toEqual({ ok: true, start: NOW - 60, end: NOW });
  });

  it("refuses a start not before the end with 400", () => {
    expect(range(NOW - 10, NOW - 10)).toEqual({
      ok: false,
      status: 400,
      message: "The start time must be before the end time.",
    });
  });

  it("holds the start to the plan's limit, and a range wholly older to the empty range at it", () => {
    const oldest = oldestAllowed(TWO_YEARS, NOW)!;
    expect(range(oldest - 100, oldest + 100)).toEqual({ ok: true, start: oldest, end: oldest + 100 });
    expect(range(oldest - 100, oldest)).toEqual({ ok: true, start: oldest, end: oldest });
    expect(range(0, 10)).toEqual({ ok: true, start: oldest, end: oldest });
    expect(range(0, 10, {})).toEqual({ ok: true, start: 0, end: 10 });
  });
});
