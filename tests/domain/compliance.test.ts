import { describe, expect, it } from "vitest";
import {
  checkActivationEnergy,
  complianceOf,
  ACTIVATION_ENERGY_RULE,
  DEFAULT_ACTIVATION_ENERGY,
} from "../../src/domain/compliance.ts";

// The reference is the textbook formula written out plainly over evenly spaced values:
// Tk = (ΔH/R) / −ln(Σ e^(−ΔH/(R·Ti)) / n), Ti in kelvin, R = 8.3144 J/(mol·K).
function textbookMkt(celsius: readonly number[], kjPerMol = 83.144): number {
  const dhOverR = (kjPerMol * 1000) / 8.3144;
  let sum = 0;
  for (const c of celsius) sum += Math.exp(-dhOverR / (c + 273.15));
  return dhOverR / -Math.log(sum / celsius.length) - 273.15;
}

const MINUTE = 60;
const T0 = 1_767_225_600;
const evenly = (values: readonly number[], step = MINUTE) =>
  values.map((v, i) => [T0 + i * step, v] as const);
const opts = {
  activationEnergy: DEFAULT_ACTIVATION_ENERGY,
  gapSeconds: 10 * MINUTE,
  ranges: [],
  temperature: true,
};

const constant = Array.from({ length: 1440 }, () => 5);
const sine = Array.from({ length: 7 * 1440 }, (_, i) => 20 + 8 * Math.sin((2 * Math.PI * i) / 1440));
const spike = Array.from({ length: 1440 }, (_, i) => (i >= 600 && i < 630 ? 40 : 4));
const week = Array.from({ length: 7 * 1440 }, (_, i) => 2 + (6 * ((i * 7919) % 101)) / 100);

describe("mean kinetic temperature", () => {
  it.each([
    ["a constant series", constant],
    ["a sine over a week", sine],
    ["a 30-minute spike to 40 °C", spike],
    ["scattered values", week],
  ])("agrees with the textbook formula within 0.01 °C on %s", (_, values) => {
    const got = complianceOf(evenly(values), opts).mkt!;
    expect(Math.abs(got - textbookMkt(values))).toBeLessThan(0.01);
  });

  it("equals the temperature of a constant series", () => {
    expect(complianceOf(evenly(constant), opts).mkt).toBeCloseTo(5, 9);
  });

  it("weighs uneven readings by the time each one covers until the next", () => {
    // Readings at minutes 0, 1, 2, 5, 6, 15: each holds until the next (within 10 minutes); the
    // last holds as long as the interval before it. The reference spells it out minute by minute.
    const at = [0, 1, 2, 5, 6, 15];
    const values = [5, 25, 8, 30, 2, 12];
    const uneven = at.map((m, i) => [T0 + m * MINUTE, values[i]!] as const);
    const minutes = [5, 25, 8, 8, 8, 30, ...Array(9).fill(2), ...Array(9).fill(12)];
    expect(Math.abs(complianceOf(uneven, opts).mkt! - textbookMkt(minutes))).toBeLessThan(0.01);
  });

  it("counts a reading before a silence for the interval before it, not for the silence", () => {
    const at = [0, 1, 2, 600, 601, 602];
    const values = [5, 5, 40, 5, 5, 5];
    const silent = at.map((m, i) => [T0 + m * MINUTE, values[i]!] as const);
    const f = complianceOf(silent, opts);
    expect(Math.abs(f.mkt! - textbookMkt(values))).toBeLessThan(0.01);
    expect(f.seconds).toBe(6 * MINUTE);
  });

  it("follows the activation energy: a higher ΔH weighs the spike more", () => {
    const low = complianceOf(evenly(spike), { ...opts, activationEnergy: 60 }).mkt!;
    const high = complianceOf(evenly(spike), { ...opts, activationEnergy: 150 }).mkt!;
    expect(Math.abs(low - textbookMkt(spike, 60))).toBeLessThan(0.01);
    expect(Math.abs(high - textbookMkt(spike, 150))).toBeLessThan(0.01);
    expect(high).toBeGreaterThan(low);
  });

  it("keeps its precision over a year of minutes", () => {
    const year = Array.from({ length: 525_600 }, (_, i) => 20 + 5 * Math.sin(i / 60));
    expect(Math.abs(complianceOf(evenly(year), opts).mkt! - textbookMkt(year))).toBeLessThan(0.001);
    // Half a million readings twice over: ~1 s alone, more on a busy machine.
  }, 60_000);

  it("is absent for other channels and without readings", () => {
    expect(complianceOf(evenly([40, 50]), { ...opts, temperature: false }).mkt).toBeNull();
    expect(complianceOf([], opts)).toMatchObject({ mkt: null, min: null, max: null, readings: 0 });
  });
});

describe("extremes, time in range and excursions", () => {
  const ranges = [
    { id: 1, min: 8, max: null },
    { id: 2, min: null, max: 2 },
  ];
  //            0  1  2  3  4  5  6  7  8  9 10 11
  const values = [5, 9, 9, 5, 1, 1, 1, 5, 9, 5, 5, 9];
  const f = complianceOf(evenly(values), { ...opts, ranges });

  it("gives the minimum and maximum with the first time each was read", () => {
    expect(f.min).toEqual({ value: 1, at: T0 + 4 * MINUTE });
    expect(f.max).toEqual({ value: 9, at: T0 + 1 * MINUTE });
  });

  it.each([
    [1, 4 * MINUTE, 3, 2 * MINUTE],
    [2, 3 * MINUTE, 1, 3 * MINUTE],
  ])("range %i: %i s inside, %i excursions, the longest %i s", (id, seconds, count, longest) => {
    const r = f.ranges.find((x) => x.rangeId === id)!;
    expect(r).toMatchObject({ seconds, excursions: count });
    expect(r.longest!.duration).toBe(longest);
  });

  it("counts the excursions of every range and names the longest", () => {
    expect(f.excursions).toBe(4);
    expect(f.longest).toEqual({ rangeId: 2, start: T0 + 4 * MINUTE, end: T0 + 7 * MINUTE, duration: 180 });
  });

  it("breaks an excursion at a silence longer than the gap", () => {
    const at = [0, 1, 30, 31];
    const g = complianceOf(
      at.map((m) => [T0 + m * MINUTE, 9] as const),
      { ...opts, ranges },
    );
    expect(g.ranges[0]).toMatchObject({ excursions: 2, seconds: 4 * MINUTE });
  });
});

describe("activation energy", () => {
  it.each([
    [83.144, null],
    [10, null],
    [300, null],
    [9.99, ACTIVATION_ENERGY_RULE],
    [300.5, ACTIVATION_ENERGY_RULE],
    [Number.NaN, ACTIVATION_ENERGY_RULE],
  ])("%s kJ/mol gives %s", (v, rule) => {
    expect(checkActivationEnergy(v)).toBe(rule);
  });
});
