// Compliance figures of one channel over a report's window, read from its raw readings in one
// pass (a year of minutes never sits in memory): mean kinetic temperature, minimum and maximum
// with their times, time in each threshold range, the excursions and the longest.
//
// Each reading stands for a duration, its weight: the time until the next reading when that
// came within `gapSeconds` (the chart's gap, two push intervals); a reading before a silence or
// at the end stands for the interval before it (within the gap), and a lone reading for half
// the gap (one push interval). Evenly spaced readings thus all weigh the same and the mean
// kinetic temperature is the textbook one; uneven or thinned readings count by the time they
// cover, not by their number.
import type { ThresholdRange } from "./excursions.ts";

/** The gas constant as USP <1160> takes it, J/(mol·K): 83.144 kJ/mol over it is 10,000 K. */
export const GAS_CONSTANT = 8.3144;
/** ΔH, kJ/mol: the usual activation energy for mean kinetic temperature (USP, ICH). */
export const DEFAULT_ACTIVATION_ENERGY = 83.144;
export const MIN_ACTIVATION_ENERGY = 10;
export const MAX_ACTIVATION_ENERGY = 300;
export const ACTIVATION_ENERGY_RULE = `The activation energy (ΔH) is a number of kJ/mol from ${MIN_ACTIVATION_ENERGY} to ${MAX_ACTIVATION_ENERGY}.`;
const KELVIN = 273.15;

export interface Extreme {
  value: number;
  /** Epoch seconds; the first time it was read. */
  at: number;
}

export interface Stretch {
  start: number;
  end: number;
  duration: number;
}

export interface RangeFigures {
  rangeId: number;
  /** Time the readings spent inside the range. */
  seconds: number;
  excursions: number;
  longest: Stretch | null;
}

export interface ComplianceFigures {
  readings: number;
  /** Time the readings cover (the sum of their weights). */
  seconds: number;
  /** Mean kinetic temperature (°C) of a temperature channel; null for others or without readings. */
  mkt: number | null;
  min: Extreme | null;
  max: Extreme | null;
  ranges: RangeFigures[];
  /** Excursions into any of the ranges, and the longest of them. */
  excursions: number;
  longest: (Stretch & { rangeId: number }) | null;
}

export interface ComplianceOptions {
  /** kJ/mol. */
  activationEnergy: number;
  gapSeconds: number;
  ranges: readonly ThresholdRange[];
  /** Temperatures in °C get a mean kinetic temperature. */
  temperature: boolean;
}

/** A sum kept with Neumaier's compensation: half a million small terms lose nothing. */
class Sum {
  total = 0;
  private carry = 0;
  add(x: number) {
    const t = this.total + x;
    this.carry += Math.abs(this.total) >= Math.abs(x) ? this.total - t + x : x - t + this.total;
    this.total = t;
  }
  get value() {
    return this.total + this.carry;
  }
}

interface Run {
  start: number;
  end: number;
}

/** Readings added one at a time, oldest first; `figures()` at the end. */
export class ComplianceTally {
  private readonly k: number;
  private readonly weights = new Sum();
  private readonly terms = new Sum();
  /** exp(k / T) of the first reading: the terms are taken relative to it, so they stay near 1. */
  private ref: number | null = null;
  private pending: { at: number; value: number; before: number | null } | null = null;
  private readonly runs: (Run | null)[];
  private readonly perRange: RangeFigures[];
  private readings = 0;
  private min: Extreme | null = null;
  private max: Extreme | null = null;

  private readonly opts: ComplianceOptions;

  constructor(opts: ComplianceOptions) {
    this.opts = opts;
    this.k = (opts.activationEnergy * 1000) / GAS_CONSTANT;
    this.runs = opts.ranges.map(() => null);
    this.perRange = opts.ranges.map((r) => ({ rangeId: r.id, seconds: 0, excursions: 0, longest: null }));
  }

  /** The next reading (°C for temperatures, adjusted), later than the one before. */
  add(at: number, value: number) {
    const p = this.pending;
    let before: number | null = null;
    if (p) {
      const interval = at - p.at;
      const joined = interval <= this.opts.gapSeconds;
      this.settle(p.at, p.value, joined ? interval : this.lastWeight(p.before), p.before !== null);
      if (joined) before = interval;
    }
    this.pending = { at, value, before };
  }

  /** The figures of every reading added. */
  figures(): ComplianceFigures {
    const p = this.pending;
    if (p) this.settle(p.at, p.value, this.lastWeight(p.before), p.before !== null);
    this.pending = null;
    this.runs.forEach((_, i) => this.close(i));
    const all = this.perRange.flatMap((r) => (r.longest ? [{ ...r.longest, rangeId: r.rangeId }] : []));
    const longest = all.reduce<(typeof all)[number] | null>(
      (best, s) => (!best || s.duration > best.duration ? s : best),
      null,
    );
    return {
      readings: this.readings,
      seconds: this.weights.value,
      mkt: this.mkt(),
      min: this.min,
      max: this.max,
      ranges: this.perRange.map((r) => ({ ...r })),
      excursions: this.perRange.reduce((n, r) => n + r.excursions, 0),
      longest,
    };
  }

  private lastWeight(before: number | null) {
    return before ?? this.opts.gapSeconds / 2;
  }

  /** A reading whose weight is known; `joined` when it follows the one before without a silence. */
  private settle(at: number, value: number, weight: number, joined: boolean) {
    this.readings++;
    if (!this.min || value < this.min.value) this.min = { value, at };
    if (!this.max || value > this.max.value) this.max = { value, at };
    this.weights.add(weight);
    if (this.opts.temperature) {
      const kelvin = value + KELVIN;
      this.ref ??= this.k / kelvin;
      this.terms.add(weight * Math.exp(this.ref - this.k / kelvin));
    }
    this.opts.ranges.forEach((r, i) => {
      const inside = (r.min === null || value >= r.min) && (r.max === null || value <= r.max);
      const run = this.runs[i];
      if (!inside || (run && !joined)) this.close(i);
      if (!inside) return;
      this.perRange[i]!.seconds += weight;
      if (this.runs[i]) this.runs[i]!.end = at + weight;
      else this.runs[i] = { start: at, end: at + weight };
    });
  }

  private close(i: number) {
    const run = this.runs[i];
    if (!run) return;
    const figures = this.perRange[i]!;
    const duration = run.end - run.start;
    figures.excursions++;
    if (!figures.longest || duration > figures.longest.duration)
      figures.longest = { start: run.start, end: run.end, duration };
    this.runs[i] = null;
  }

  /** Tk = (ΔH/R) / −ln(Σ wᵢ·e^(−ΔH/(R·Tᵢ)) / Σ wᵢ), the terms scaled by e^(ΔH/(R·T₀)). */
  private mkt(): number | null {
    if (!this.opts.temperature || this.ref === null || this.weights.value <= 0) return null;
    const mean = this.terms.value / this.weights.value;
    return this.k / (this.ref - Math.log(mean)) - KELVIN;
  }
}

/** The figures of a whole series of [epoch seconds, value] pairs sorted by time. */
export function complianceOf(
  readings: readonly (readonly [number, number])[],
  opts: ComplianceOptions,
): ComplianceFigures {
  const tally = new ComplianceTally(opts);
  for (const [at, value] of readings) tally.add(at, value);
  return tally.figures();
}

/** An activation energy from a form or a query, or the rule it breaks. */
export function checkActivationEnergy(v: number): string | null {
  return Number.isFinite(v) && v >= MIN_ACTIVATION_ENERGY && v <= MAX_ACTIVATION_ENERGY
    ? null
    : ACTIVATION_ENERGY_RULE;
}
