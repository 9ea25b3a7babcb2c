import { describe, expect, it } from "vitest";
import {
  adjustmentFromCelsius,
  adjustmentToCelsius,
  celsius,
  fahrenheit,
  fromCelsius,
  resolveTemperatureScale,
  toCelsius,
  type Celsius,
  type Fahrenheit,
} from "../../src/domain/index.ts";

describe("temperature", () => {
  it.each([
    [0, "F", 32],
    [100, "F", 212],
    [21.456, "C", 21.46],
    [21.456, "F", 70.6],
  ] as const)("shows %f °C in %s as %f", (c, scale, shown) => {
    expect(fromCelsius(celsius(c), scale)).toBe(shown);
  });

  it("converts back to Celsius with 2 decimals", () => {
    expect(toCelsius(fahrenheit(70.6), "F")).toBe(21.44);
    expect(toCelsius(fahrenheit(-40), "F")).toBe(-40);
    expect(toCelsius(celsius(21.456), "C")).toBe(21.46);
  });

  it("converts adjustments as differences, without the 32 offset", () => {
    expect(adjustmentFromCelsius(celsius(1), "F")).toBe(1.8);
    expect(adjustmentFromCelsius(celsius(0.333), "C")).toBe(0.33);
    expect(adjustmentToCelsius(fahrenheit(1.8), "F")).toBe(1);
  });

  it("keeps Celsius and Fahrenheit apart in the type check", () => {
    const shown: Fahrenheit = fromCelsius(celsius(20), "F");
    // @ts-expect-error a Fahrenheit reading is not a stored Celsius one
    const stored: Celsius = shown;
    // @ts-expect-error a plain number has no unit
    fromCelsius(20, "C");
    // @ts-expect-error a Celsius value typed in while the scale is F
    toCelsius(celsius(20), "F");
    expect([shown, stored]).toEqual([68, 68]);
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
