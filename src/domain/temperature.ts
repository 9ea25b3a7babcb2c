import type { Celsius, Fahrenheit } from "./brand.ts";

export type TemperatureScale = "C" | "F";
/** A temperature in the scale its person chose. */
export type InScale<S extends TemperatureScale> = S extends "C" ? Celsius : Fahrenheit;

/** Unrecognised temperature scales fall back to F (spec section 5). */
export function resolveTemperatureScale(scale: string | null | undefined): TemperatureScale {
  const s = (scale ?? "").trim().toUpperCase();
  return s === "C" ? "C" : "F";
}

/** Decimals of the spec: 2 in Celsius, 1 in Fahrenheit. */
export const DECIMALS: Record<TemperatureScale, number> = { C: 2, F: 1 };

/** Rounding of the spec: 2 decimals in Celsius, 1 in Fahrenheit. */
export function roundFor<S extends TemperatureScale>(scale: S, value: number): InScale<S> {
  const f = 10 ** DECIMALS[scale];
  return (Math.round(value * f) / f) as InScale<S>;
}

/** Converts a temperature reading (stored in Celsius) to the chosen scale, rounded. */
export function fromCelsius<S extends TemperatureScale>(celsius: Celsius, scale: S): InScale<S> {
  return roundFor(scale, scale === "C" ? celsius : (celsius * 9) / 5 + 32);
}

/** Converts a reading typed in the given scale to Celsius, rounded to 2 decimals. */
export function toCelsius<S extends TemperatureScale>(value: InScale<S>, scale: S): Celsius {
  return roundFor("C", scale === "C" ? value : ((value - 32) * 5) / 9);
}

/** An adjustment is a difference, so it scales by 9/5 without the 32 offset. */
export function adjustmentFromCelsius<S extends TemperatureScale>(delta: Celsius, scale: S): InScale<S> {
  return roundFor(scale, scale === "C" ? delta : (delta * 9) / 5);
}

/** An adjustment typed in the given scale, as a Celsius difference. */
export function adjustmentToCelsius<S extends TemperatureScale>(delta: InScale<S>, scale: S): Celsius {
  return roundFor("C", scale === "C" ? delta : (delta * 5) / 9);
}
