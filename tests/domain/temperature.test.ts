import { describe, expect, it } from "vitest";
import {
  adjustmentFromCelsius,
  adjustmentToCelsius,
  fromCelsius,
  resolveTemperatureScale,
  toCelsius,
} from "../../src/domain/index.ts";

describe("temperature", () => {
  it.each([
    [0, "F", 32],
    [100, "F", 212],
    [21.456, "C", 21.46],
    [21.456, "F", 70.6],
  ] as const)("shows %f °C in %s as %f", (c, scale, shown) => {
    expect(fromCelsius(c, scale)).toBe(shown);
  });

  it("converts back to Celsius with 2 decimals", () => {
    expect(toCelsius(70.6, "F")).toBe(21.44);
    expect(toCelsius(-40, "F")).toBe(-40);
  });

  it("converts adjustments as differences, without the 32 offset", () => {
    expect(adjustmentFromCelsius(1, "F")).toBe(1.8);
    expect(adjustmentFromCelsius(0.333, "C")).toBe(0.33);
    expect(adjustmentToCelsius(1.8, "F")).toBe(1);
  });

  it.each([
    ["C", "C"],
    ["c", "C"],
    ["F", "F"],
    ["K", "F"],
    [null, "F"],
  ])("resolves scale %s to %s", (scale, expected) => {
    expect(resolveTemperatureScale(scale)).toBe(expected);
  });
});
