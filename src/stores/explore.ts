import { atom, computed } from "nanostores";
import { getChannelHistory } from "../api/deviceData.ts";
import type { ResponseOf } from "../api/endpoint.ts";
import type { FieldError } from "../api/errors.ts";
import type { Celsius } from "../domain/brand.ts";
import { isTemperatureKind, unitIn } from "../domain/device.ts";
import { RANGE_ORDER } from "../domain/plan.ts";
import { fromCelsius, type TemperatureScale } from "../domain/temperature.ts";
import { $devicePrefs } from "./device.ts";
import { call, RequestFailure } from "./http.ts";
import { zoneOffsetSeconds } from "../domain/zoneTime.ts";

/*
 * The explore page (/s/sensor-data/explore/{channelKey}): one channel's history over a range
 * the person picks, shown in their temperature scale and time zone.
 */

export const EXPLORE_NOT_FOUND = "This sensor channel was not found in your subscription.";
export const EXPLORE_LOAD_FAILED = "Unexpected error loading sensor data. Please try again.";
export const RANGE_REQUIRED = "Enter a start and an end time.";

export type RangePreset = "24h" | "7d" | "30d" | "custom";
export const RANGE_PRESETS: readonly { value: RangePreset; label: string; seconds: number }[] = [
  { value: "24h", label: "Last 24 hours", seconds: 86_400 },
  { value: "7d", label: "Last 7 days", seconds: 7 * 86_400 },
  { value: "30d", label: "Last 30 days", seconds: 30 * 86_400 },
  { value: "custom", label: "Custom range", seconds: 0 },
];

/** The range picker as the person left it; from and to are wall-clock times in their zone. */
export interface RangeDraft {
  preset: RangePreset;
  from: string;
  to: string;
}

export type History = ResponseOf<typeof getChannelHistory>;
export type ExploreState =
  | { status: "loading" }
  | { status: "ready"; history: History }
  | { status: "error"; message: string; notFound: boolean };

export const $exploreRange = atom<RangeDraft>({ preset: "24h", from: "", to: "" });
export const $explore = atom<ExploreState>({ status: "loading" });
/** Messages of the range picker (fields `from`, `to`), from the browser's checks or the server. */
export const $rangeErrors = atom<FieldError[]>([]);
/**
 * Where the shown readings begin when the plan held back older ones the range asked for
 * (the answer starts later than the question), else null.
 */
export const $heldFrom = atom<number | null>(null);

/** Epoch seconds of a wall-clock time 'YYYY-MM-DDTHH:mm' in the zone; null when it is not one. */
export function zonedToEpoch(local: string, zone: string): number | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(local);
  if (!m) return null;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!) / 1000;
  if (!Number.isFinite(asUtc)) return null;
  // Twice: the offset at the guess may differ from the offset at the answer near a DST change.
  const guess = asUtc - zoneOffsetSeconds(asUtc, zone);
  return asUtc - zoneOffsetSeconds(guess, zone);
}

/** An instant as the wall-clock text a datetime-local input takes ('YYYY-MM-DDTHH:mm') in the zone. */
export function zonedInput(epoch: number, zone: string): string {
  return new Date((epoch + zoneOffsetSeconds(epoch, zone)) * 1000).toISOString().slice(0, 16);
}

/** The range to ask for, or the messages that stop it: a preset ends now; a custom range needs both ends in order. */
export function rangeOf(
  draft: RangeDraft,
  now: number,
  zone: string,
): { ok: true; start: number; end: number } | { ok: false; errors: FieldError[] } {
  const preset = RANGE_PRESETS.find((p) => p.value === draft.preset);
  if (preset && preset.value !== "custom") return { ok: true, start: now - preset.seconds, end: now };
  const start = zonedToEpoch(draft.from, zone);
  const end = zonedToEpoch(draft.to, zone);
  const errors: FieldError[] = [];
  if (start === null) errors.push({ field: "from", message: RANGE_REQUIRED });
  if (end === null) errors.push({ field: "to", message: RANGE_REQUIRED });
  if (start !== null && end !== null && start >= end) errors.push({ field: "from", message: RANGE_ORDER });
  return errors.length ? { ok: false, errors } : { ok: true, start: start!, end: end! };
}

let asked = 0;

/** Loads the channel's history for the range; a range the browser refuses keeps the chart shown. */
export async function loadHistory(channelKey: string, draft: RangeDraft, now: number) {
  const range = rangeOf(draft, Math.floor(now), $devicePrefs.get().zone);
  $rangeErrors.set(range.ok ? [] : range.errors);
  if (!range.ok) return;
  const ask = ++asked;
  $explore.set({ status: "loading" });
  const query = { start: String(range.start), end: String(range.end) };
  try {
    const history = await call(getChannelHistory, query, { channelKey });
    if (ask !== asked) return;
    $heldFrom.set(history.start > range.start ? history.start : null);
    $explore.set({ status: "ready", history });
  } catch (e) {
    if (ask !== asked) return;
    const status = e instanceof RequestFailure ? e.status : undefined;
    // A refusal and a refused range explain themselves; anything else does not.
    const told = e instanceof RequestFailure && (status === 400 || status === 403) ? e.message : null;
    if (told && status === 400) return $rangeErrors.set([{ field: "from", message: told }]);
    $explore.set({
      status: "error",
      message: told ?? (status === 404 ? EXPLORE_NOT_FOUND : EXPLORE_LOAD_FAILED),
      notFound: status === 404,
    });
  }
}

/** A stored value as shown: temperatures converted and rounded (C 2, F 1 decimals), others to 2 decimals. */
export function shownValue(kind: string, value: number, scale: TemperatureScale): number {
  return isTemperatureKind(kind) ? fromCelsius(value as Celsius, scale) : Math.round(value * 100) / 100;
}

export interface ChartData {
  title: string;
  unit: string;
  /** [epoch milliseconds, value in the shown unit], oldest first. */
  points: [number, number][];
  bucketSeconds: number;
  summary: { count: number; low: number; high: number; latest: [number, number] } | null;
  /** The range shown, epoch seconds (the chart marks the stretches of it without readings). */
  start: number;
  end: number;
}

/** What the chart and its summary show. */
export function chartData(history: History, scale: TemperatureScale): ChartData {
  const { channel } = history;
  const points = history.points.map(
    ([at, v]) => [at * 1000, shownValue(channel.kind, v, scale)] as [number, number],
  );
  const values = points.map((p) => p[1]);
  return {
    title: channel.name,
    unit: unitIn(channel.kind, channel.units, scale),
    points,
    bucketSeconds: history.bucketSeconds,
    start: history.start,
    end: history.end,
    summary: points.length
      ? {
          count: points.length,
          low: Math.min(...values),
          high: Math.max(...values),
          latest: points[points.length - 1]!,
        }
      : null,
  };
}

/** The chart of the loaded history, or null while there is none. */
export const $exploreChart = computed([$explore, $devicePrefs], (s, prefs) =>
  s.status === "ready" ? chartData(s.history, prefs.scale) : null,
);
