import { describe, expect, it } from "vitest";
import {
  batteryBand,
  epochSeconds,
  formatUptime,
  isFirmwareUpToDate,
  isSensorMuted,
  nextPushExpected,
  pushStatusLabel,
  signalStrength,
  usesPublicDeviceRoute,
} from "../../src/domain/index.ts";

describe("device rules", () => {
  it.each([
    [0, "Low"],
    [30, "Low"],
    [31, "Ok"],
    [60, "Ok"],
    [61, "Good"],
    [100, "Good"],
  ])("puts battery %i in band %s", (percent, band) => {
    expect(batteryBand(percent)).toBe(band);
  });

  it.each([
    [-40, "Strong"],
    [-80, "Strong"],
    [-81, "Okay"],
  ])("calls signal %i dBm %s", (dbm, label) => {
    expect(signalStrength(dbm)).toBe(label);
  });

  it("mutes a sensor whose last reading is older than 7200 seconds", () => {
    const now = epochSeconds(100_000);
    expect(isSensorMuted(epochSeconds(100_000 - 7200), now)).toBe(false);
    expect(isSensorMuted(epochSeconds(100_000 - 7201), now)).toBe(true);
    expect(isSensorMuted(null, now)).toBe(true);
  });

  it.each([
    ["1.2.3", "1.2.3", true],
    ["v1.2.3", "1.2.3", true],
    ["1.2.3", "1.2.4", false],
    [null, "1.2.3", false],
  ])("says firmware %s against latest %s is up to date: %s", (current, latest, expected) => {
    expect(isFirmwareUpToDate(current, latest)).toBe(expected);
  });

  it.each([
    [59, "00:00:59"],
    [3661, "01:01:01"],
    [86400 + 3723, "1 day 01:02:03"],
    [3 * 86400 + 5, "3 days 00:00:05"],
  ])("formats uptime %i as %s", (seconds, shown) => {
    expect(formatUptime(seconds)).toBe(shown);
  });

  it("reports Pushing only for value 1", () => {
    expect(pushStatusLabel(1)).toBe("Pushing");
    expect(pushStatusLabel(0)).toBe("Not Pushing");
    expect(pushStatusLabel(null)).toBe("Not Pushing");
  });

  it("expects the next push one interval after the last", () => {
    expect(nextPushExpected(epochSeconds(1000), 600)).toBe(1600);
    expect(nextPushExpected(null, 600)).toBeNull();
  });

  it("sends device types not beginning with RA to /public/device", () => {
    expect(usesPublicDeviceRoute("RA12")).toBe(false);
    expect(usesPublicDeviceRoute("RAMAX")).toBe(false);
    expect(usesPublicDeviceRoute("WSX")).toBe(true);
  });
});
