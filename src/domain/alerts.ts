import type { Celsius } from "./brand.ts";
import { batteryBand, isTemperatureKind } from "./device.ts";
import {
  adjustmentToCelsius,
  DECIMALS,
  fromCelsius,
  toCelsius,
  type TemperatureScale,
} from "./temperature.ts";

/*
 * The rules of alerting (issue 34), shared by the server that evaluates them and the pages that
 * show them. docs/decisions.md, "Alerts", explains the choices.
 */

export const THRESHOLD_KINDS = ["above", "below", "outside"] as const;
export const DEVICE_KINDS = ["offline", "stale", "battery"] as const;
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export type RuleKind = ThresholdKind | DeviceKind;
export const SEVERITIES = ["critical", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];
export type AlarmState = "pending" | "triggered" | "acknowledged" | "cleared";

/** The spec's stale rule: a sensor not heard from for two hours. */
export const STALE_AFTER_SECONDS = 2 * 3600;

export interface AlertNotify {
  /** Members of the subscription, each mailed in their own scale and time zone. */
  userIds: number[];
  /** Outside addresses. */
  emails: string[];
  webhookUrls: string[];
}
/** After `afterMinutes` unacknowledged, these are told too. */
export interface Escalation {
  afterMinutes: number;
  userIds: number[];
  emails: string[];
}
/** Local hours ("22:00" to "06:00") when only critical alarms are sent at once; the rest wait for the end. */
export interface QuietHours {
  from: string;
  to: string;
  timeZone: string;
}

/** The thresholds of a rule as the evaluator uses them: in the channel's stored unit. */
export interface Thresholds {
  kind: ThresholdKind;
  low: number | null;
  high: number | null;
  deadBand: number;
}

/** Is a value (adjusted, stored unit) past the rule's line? */
export function breaches(t: Thresholds, v: number): boolean {
  const above = t.high !== null && v > t.high;
  const below = t.low !== null && v < t.low;
  if (t.kind === "above") return above;
  if (t.kind === "below") return below;
  return above || below;
}

/**
 * Is a value far enough back inside to clear the alarm? The dead band keeps a value that
 * hovers at the line from clearing and triggering in turn.
 */
export function clears(t: Thresholds, v: number): boolean {
  const underHigh = t.high === null || v <= t.high - t.deadBand;
  const overLow = t.low === null || v >= t.low + t.deadBand;
  if (t.kind === "above") return underHigh;
  if (t.kind === "below") return overLow;
  return underHigh && overLow;
}

/** What one reading does to a channel's alarm (its state before, or null when none is open). */
export type Step =
  | { move: "none" }
  | { move: "open"; triggered: boolean }
  | { move: "count"; triggered: boolean }
  | { move: "drop" }
  | { move: "clear" };

/**
 * The alarm's next step on a reading (value adjusted, in the stored unit), at `atMs`: a breach
 * opens a pending alarm, or counts one more reading in a row; a pending alarm triggers once held
 * for the delay and for the readings in a row, and is dropped by a reading back inside (it never
 * was an alarm); a triggered or acknowledged one clears past the dead band.
 */
export function stepAlarm(
  alarm: { state: AlarmState; sinceMs: number; breaches: number } | null,
  rule: Thresholds & { delaySeconds: number; delayReadings: number },
  value: number,
  atMs: number,
): Step {
  const held = (since: number, count: number) =>
    count >= rule.delayReadings && atMs - since >= rule.delaySeconds * 1000;
  if (!alarm) return breaches(rule, value) ? { move: "open", triggered: held(atMs, 1) } : { move: "none" };
  if (alarm.state === "pending")
    return breaches(rule, value)
      ? { move: "count", triggered: held(alarm.sinceMs, alarm.breaches + 1) }
      : { move: "drop" };
  if (alarm.state === "cleared") return { move: "none" };
  return clears(rule, value) ? { move: "clear" } : { move: "none" };
}

/** The line a value crossed, for the message ("limit 8.0 °C"). */
export function limitCrossed(t: Thresholds, v: number): number | null {
  if (t.high !== null && v > t.high && t.kind !== "below") return t.high;
  if (t.low !== null && v < t.low && t.kind !== "above") return t.low;
  return t.high ?? t.low;
}

/**
 * Thresholds typed in a scale, stored in the channel's unit: temperatures become Celsius
 * exactly as the sensor settings convert (two decimals), the dead band as a difference.
 */
export function storedThresholds(
  channelKind: string,
  scale: TemperatureScale,
  typed: { low: number | null; high: number | null; deadBand: number },
): { low: number | null; high: number | null; deadBand: number } {
  if (!isTemperatureKind(channelKind)) return typed;
  const conv = (v: number | null) => (v === null ? null : (toCelsius(v as never, scale) as number));
  return {
    low: conv(typed.low),
    high: conv(typed.high),
    deadBand: adjustmentToCelsius(typed.deadBand as never, scale) as number,
  };
}

/** A stored value as a person reads it: temperatures in their scale, others with the channel's units. */
export function valueText(
  channelKind: string | null,
  units: string | null,
  value: number | null,
  scale: TemperatureScale,
): string {
  if (value === null) return "no reading";
  if (channelKind && isTemperatureKind(channelKind))
    return `${fromCelsius(value as Celsius, scale).toFixed(DECIMALS[scale])} °${scale}`;
  const rounded = String(Math.round(value * 100) / 100);
  return units ? `${rounded}${units === "%" ? "" : " "}${units}` : rounded;
}

/** Shown back in the scale the rule was typed in. */
export function typedThreshold(channelKind: string | null, stored: number | null, scale: TemperatureScale) {
  if (stored === null || !channelKind || !isTemperatureKind(channelKind)) return stored;
  return fromCelsius(stored as Celsius, scale) as number;
}

/** A device is silent once its next push is overdue by more than the grace. */
export function silentSince(
  lastMessageAt: Date | null,
  pushIntervalSeconds: number,
  graceSeconds: number,
): Date | null {
  if (!lastMessageAt) return null;
  return new Date(lastMessageAt.getTime() + (pushIntervalSeconds + graceSeconds) * 1000);
}

/** The battery rule: Low (spec bands: 30 or below) while not plugged in. */
export function batteryLow(percent: number | null, pluggedIn: boolean): boolean {
  return percent !== null && !pluggedIn && batteryBand(percent) === "Low";
}

/** Minutes from midnight of "HH:MM", or null. */
export function minutesOf(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The local minutes of the day of an instant in a zone. */
function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const h = Number(parts.find((p) => p.type === "hour")?.value);
  const m = Number(parts.find((p) => p.type === "minute")?.value);
  return h * 60 + m;
}

/**
 * When a notice made at `at` may go: at once, or at the end of the quiet hours it falls in.
 * Critical alarms are never held. The window may run over midnight (22:00 to 06:00).
 */
export function notBefore(at: Date, quiet: QuietHours | null, severity: Severity): Date {
  if (!quiet || severity === "critical") return at;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === null || to === null || from === to) return at;
  const now = localMinutes(at, quiet.timeZone);
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  if (!inside) return at;
  const wait = (to - now + 1440) % 1440;
  // Whole minutes: the end is "to" local time (a DST change inside the window shifts it by its hour).
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000 + wait * 60_000);
}

/**
 * Webhook retries: 30 s, 1, 2, 4 ... minutes, at most an hour apart, for at least 24 hours
 * (RETRY_FOR_MS) after the first attempt; then the delivery is given up and logged so.
 */
export const RETRY_FOR_MS = 26 * 3600_000;
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/** Active alarms first (triggered before acknowledged, critical first), then newest. */
export function alarmOrder(
  a: { state: AlarmState; severity: Severity; id: number },
  b: { state: AlarmState; severity: Severity; id: number },
): number {
  const stateRank = { triggered: 0, acknowledged: 1, pending: 2, cleared: 3 };
  const sevRank = { critical: 0, warning: 1, info: 2 };
  return stateRank[a.state] - stateRank[b.state] || sevRank[a.severity] - sevRank[b.severity] || b.id - a.id;
}

/** An alarm that still needs someone: triggered or acknowledged, not cleared. */
export const isActive = (state: AlarmState) => state === "triggered" || state === "acknowledged";

/** "Cold room above 8 °C" style headline of a rule kind. */
export const KIND_TEXT: Record<RuleKind, string> = {
  above: "above",
  below: "below",
  outside: "outside",
  offline: "device silent",
  stale: "sensor stale",
  battery: "battery low",
};
