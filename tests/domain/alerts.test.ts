import { describe, expect, it } from "vitest";
import {
  alarmOrder,
  batteryLow,
  breaches,
  clears,
  limitCrossed,
  notBefore,
  retryDelayMs,
  stepAlarm,
  storedThresholds,
  valueText,
  type Thresholds,
} from "../../src/domain/alerts.ts";

const above8: Thresholds = { kind: "above", low: null, high: 8, deadBand: 0.5 };
const below2: Thresholds = { kind: "below", low: 2, high: null, deadBand: 0.5 };
const inside2to8: Thresholds = { kind: "outside", low: 2, high: 8, deadBand: 0.5 };

describe("a threshold's breach and its clearing past the dead band", () => {
  it.each([
    [above8, 8, false, false],
    [above8, 8.01, true, false],
    [above8, 7.6, false, false],
    [above8, 7.5, false, true],
    [below2, 2, false, false],
    [below2, 1.99, true, false],
    [below2, 2.4, false, false],
    [below2, 2.5, false, true],
    [inside2to8, 5, false, true],
    [inside2to8, 8.2, true, false],
    [inside2to8, 1.9, true, false],
    [inside2to8, 7.7, false, false],
    [inside2to8, 2.3, false, false],
  ] as const)("%o at %d breaches %s and clears %s", (t, v, breach, clear) => {
    expect(breaches(t, v)).toBe(breach);
    expect(clears(t, v)).toBe(clear);
  });

  it.each([
    [inside2to8, 9, 8],
    [inside2to8, 1, 2],
    [above8, 9, 8],
    [below2, 1, 2],
  ] as const)("names the line crossed: %o at %d crossed %d", (t, v, line) => {
    expect(limitCrossed(t, v)).toBe(line);
  });
});

describe("thresholds typed in a scale", () => {
  it.each([
    ["temperature", "F", { low: 35.6, high: 46.4, deadBand: 1.8 }, { low: 2, high: 8, deadBand: 1 }],
    ["temperature", "C", { low: 2, high: 8, deadBand: 1 }, { low: 2, high: 8, deadBand: 1 }],
    ["dew_point", "F", { low: null, high: 32, deadBand: 0 }, { low: null, high: 0, deadBand: 0 }],
    ["humidity", "F", { low: 20, high: 80, deadBand: 2 }, { low: 20, high: 80, deadBand: 2 }],
  ] as const)("%s in °%s is stored as the sensor settings convert", (kind, scale, typed, stored) => {
    expect(storedThresholds(kind, scale, typed)).toEqual(stored);
  });

  it.each([
    ["temperature", null, 8, "C", "8.00 °C"],
    ["temperature", null, 8, "F", "46.4 °F"],
    ["humidity", "%", 55.123, "F", "55.12%"],
    ["voltage", "V", 3.3, "C", "3.3 V"],
    ["temperature", null, null, "C", "no reading"],
  ] as const)("writes a %s reading of %s %d in %s as %s", (kind, units, value, scale, text) => {
    expect(valueText(kind, units, value, scale)).toBe(text);
  });
});

describe("one reading's step", () => {
  const rule = { ...above8, delaySeconds: 300, delayReadings: 2 };
  const t0 = Date.UTC(2026, 10, 28, 12);
  it.each([
    ["no alarm, inside", null, 7, 0, { move: "none" }],
    ["no alarm, a breach", null, 9, 0, { move: "open", triggered: false }],
    [
      "pending, a second breach too soon",
      { state: "pending", sinceMs: t0, breaches: 1 },
      9,
      60,
      { move: "count", triggered: false },
    ],
    [
      "pending, held for the delay and two readings",
      { state: "pending", sinceMs: t0, breaches: 1 },
      9,
      300,
      { move: "count", triggered: true },
    ],
    ["pending, back inside", { state: "pending", sinceMs: t0, breaches: 3 }, 7.9, 600, { move: "drop" }],
    [
      "triggered, inside the dead band",
      { state: "triggered", sinceMs: t0, breaches: 2 },
      7.9,
      600,
      { move: "none" },
    ],
    [
      "triggered, past the dead band",
      { state: "triggered", sinceMs: t0, breaches: 2 },
      7.5,
      600,
      { move: "clear" },
    ],
    [
      "acknowledged, past the dead band",
      { state: "acknowledged", sinceMs: t0, breaches: 2 },
      7,
      600,
      { move: "clear" },
    ],
  ] as const)("%s", (_, alarm, value, afterSeconds, step) => {
    expect(stepAlarm(alarm, rule, value, t0 + afterSeconds * 1000)).toEqual(step);
  });

  it("triggers at once a rule without delay", () => {
    expect(stepAlarm(null, { ...above8, delaySeconds: 0, delayReadings: 1 }, 9, t0)).toEqual({
      move: "open",
      triggered: true,
    });
  });

  // The property: 10,000 random blips shorter than their delay notify nobody.
  it("never triggers on 10,000 random blips shorter than their delay", () => {
    let seed = 20261128;
    const random = () => (seed = (seed * 1_103_515_245 + 12345) % 2 ** 31) / 2 ** 31;
    let triggered = 0;
    for (let i = 0; i < 10_000; i++) {
      const bySeconds = random() < 0.5;
      const r = {
        ...above8,
        delaySeconds: bySeconds ? 60 + Math.floor(random() * 3600) : 0,
        delayReadings: bySeconds ? 1 + Math.floor(random() * 3) : 2 + Math.floor(random() * 10),
      };
      // A blip: breaching readings for less than the delay (or fewer in a row than asked), then one inside.
      const count = bySeconds ? 1 + Math.floor(random() * 20) : r.delayReadings - 1;
      const span = bySeconds
        ? Math.floor(random() * (r.delaySeconds * 1000 - 1))
        : Math.floor(random() * 86_400_000);
      let alarm = null as { state: "pending" | "triggered"; sinceMs: number; breaches: number } | null;
      for (let k = 0; k <= count; k++) {
        const at = t0 + (k === count ? span : Math.floor((span * k) / Math.max(1, count)));
        const value = k === count ? 8 - random() * 5 : 8.01 + random() * 20;
        const step = stepAlarm(alarm, r, value, at);
        if ((step.move === "open" || step.move === "count") && step.triggered) triggered++;
        if (step.move === "open") alarm = { state: "pending", sinceMs: at, breaches: 1 };
        else if (step.move === "count" && alarm) alarm = { ...alarm, breaches: alarm.breaches + 1 };
        else if (step.move === "drop") alarm = null;
      }
      expect(alarm).toBeNull();
    }
    expect(triggered).toBe(0);
  });
});

describe("quiet hours", () => {
  const quiet = { from: "22:00", to: "06:00", timeZone: "Europe/Berlin" };
  it.each([
    ["2026-11-28T20:59:00Z", "warning", "2026-11-28T20:59:00Z"],
    ["2026-11-28T21:00:00Z", "warning", "2026-11-29T05:00:00Z"],
    ["2026-11-29T04:30:00Z", "info", "2026-11-29T05:00:00Z"],
    ["2026-11-28T23:00:00Z", "critical", "2026-11-28T23:00:00Z"],
    ["2026-11-29T05:00:00Z", "warning", "2026-11-29T05:00:00Z"],
  ] as const)("a %s notice of a %s alarm goes at %s", (at, severity, when) => {
    expect(notBefore(new Date(at), quiet, severity).toISOString()).toBe(new Date(when).toISOString());
  });
});

describe("the rest", () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [5, 480_000],
    [20, 3_600_000],
  ])("retries a webhook after attempt %d in %d ms", (attempts, ms) => {
    expect(retryDelayMs(attempts)).toBe(ms);
  });

  it.each([
    [12, false, true],
    [30, false, true],
    [31, false, false],
    [12, true, false],
    [null, false, false],
  ] as const)("battery %s plugged in %s is low: %s", (percent, plugged, low) => {
    expect(batteryLow(percent, plugged)).toBe(low);
  });

  it("lists triggered before acknowledged, critical first, then newest", () => {
    const list = [
      { id: 1, state: "acknowledged", severity: "critical" },
      { id: 2, state: "triggered", severity: "warning" },
      { id: 3, state: "triggered", severity: "critical" },
      { id: 4, state: "cleared", severity: "critical" },
      { id: 5, state: "triggered", severity: "warning" },
    ] as const;
    expect([...list].sort(alarmOrder).map((a) => a.id)).toEqual([3, 5, 2, 1, 4]);
  });
});
