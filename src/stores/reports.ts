import { atom, map, onMount } from "nanostores";
import {
  createReport,
  getReport,
  listReportChannels,
  updateReport,
  type ChannelOption,
  type ReportDetail,
  type ReportInput,
} from "../api/reportBuilder.ts";
import type { FieldError } from "../api/errors.ts";
import { checkActivationEnergy, DEFAULT_ACTIVATION_ENERGY } from "../domain/compliance.ts";
import { isTemperatureKind } from "../domain/device.ts";
import { fromCelsius, roundFor, toCelsius, type TemperatureScale } from "../domain/temperature.ts";
import type { Celsius } from "../domain/brand.ts";
import { zonedInput, zonedToEpoch } from "./explore.ts";
import { clearFieldErrors, formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { $reportPrefs, listSummary, LOAD_FAILED, type Loaded } from "./reportList.ts";

/** The window presets of the form; "fixed" is a start and an end. */
export const WINDOW_PRESETS = [
  { label: "Last 24 hours", seconds: 86_400 },
  { label: "Last 7 days", seconds: 604_800 },
  { label: "Last 30 days", seconds: 2_592_000 },
] as const;
/** Colours given to channels and ranges in turn. */
export const PALETTE = [
  "#1e88e5",
  "#43a047",
  "#e53935",
  "#8e24aa",
  "#fb8c00",
  "#00897b",
  "#6d4c41",
  "#3949ab",
];
/** The channels the form may pick. */
export const $channelOptions = atom<Loaded<ChannelOption[]>>({ status: "loading" });
onMount($channelOptions, () => {
  void call(listReportChannels).then(
    (value) => $channelOptions.set({ status: "ready", value }),
    (e: unknown) =>
      $channelOptions.set({ status: "failed", message: errorsOf(e)[0]?.message ?? LOAD_FAILED }),
  );
});

/** The options grouped by device, then sensor, for the picker. */
export function groupOptions(options: readonly ChannelOption[]) {
  const devices = new Map<number, { deviceName: string; sensors: Map<string, ChannelOption[]> }>();
  for (const o of options) {
    const device = devices.get(o.deviceId) ?? { deviceName: o.deviceName, sensors: new Map() };
    devices.set(o.deviceId, device);
    device.sensors.set(o.sensorName, [...(device.sensors.get(o.sensorName) ?? []), o]);
  }
  return [...devices.values()].map((d) => ({
    deviceName: d.deviceName,
    sensors: [...d.sensors].map(([sensorName, channels]) => ({ sensorName, channels })),
  }));
}

/** A threshold range as the form holds it: values as typed, in the person's scale for temperatures. */
export interface ThresholdDraft {
  name: string;
  channelId: number | null;
  min: string;
  max: string;
  color: string;
}
export interface ReportDraft {
  id: number | null;
  name: string;
  /** Seconds of a rolling window, or 0 for the fixed start and end. */
  rolling: number;
  start: string;
  end: string;
  channels: { channelId: number; color: string; axis: number }[];
  thresholds: ThresholdDraft[];
  /** ΔH of the mean kinetic temperature as typed, kJ/mol. */
  mkt: string;
}

export const $draft = map<ReportDraft>(emptyDraft());
/** Loading the report to edit: ready once the draft holds it. */
export const $draftLoad = atom<Loaded<true>>({ status: "ready", value: true });
export const $reportForm = formStore();

function emptyDraft(): ReportDraft {
  return {
    id: null,
    name: "",
    rolling: 86_400,
    start: "",
    end: "",
    channels: [],
    thresholds: [],
    mkt: String(DEFAULT_ACTIVATION_ENERGY),
  };
}

/**
 * Whether a range's values are temperatures (shown in the person's scale, stored in Celsius):
 * its channel's kind, or for a range on every channel, all of the report's channels'.
 */
export function rangeIsTemperature(
  channelId: number | null,
  draft: ReportDraft,
  options: readonly ChannelOption[],
) {
  const kindOf = (id: number) => options.find((o) => o.channelId === id)?.kind;
  const ids = channelId === null ? draft.channels.map((c) => c.channelId) : [channelId];
  return ids.length > 0 && ids.every((id) => isTemperatureKind(kindOf(id) ?? ""));
}

const shown = (celsius: number | null, temperature: boolean, scale: TemperatureScale) =>
  celsius === null
    ? ""
    : String(temperature ? roundFor(scale, fromCelsius(celsius as Celsius, scale)) : celsius);

/** A fresh form for a new report. */
export function startNewReport() {
  $draft.set(emptyDraft());
  $reportForm.set({ busy: false, errors: [] });
  $draftLoad.set({ status: "ready", value: true });
}

/** Loads a report into the form, values in the person's scale and times in their zone. */
export async function startEditReport(id: number, options: readonly ChannelOption[]) {
  $reportForm.set({ busy: false, errors: [] });
  $draftLoad.set({ status: "loading" });
  try {
    const r: ReportDetail = await call(getReport, undefined, { id });
    const { scale, zone } = $reportPrefs.get();
    const draft: ReportDraft = {
      id: r.id,
      name: r.name,
      rolling: r.timeInterval,
      start: r.startDate === null ? "" : zonedInput(r.startDate, zone),
      end: r.endDate === null ? "" : zonedInput(r.endDate, zone),
      channels: r.channels,
      thresholds: [],
      mkt: String(r.mktActivationEnergy),
    };
    draft.thresholds = r.thresholds.map((t) => {
      const temp = rangeIsTemperature(t.channelId, draft, options);
      return { ...t, min: shown(t.minValue, temp, scale), max: shown(t.maxValue, temp, scale) };
    });
    $draft.set(draft);
    $draftLoad.set({ status: "ready", value: true });
  } catch (e) {
    $draftLoad.set({ status: "failed", message: errorsOf(e)[0]?.message ?? LOAD_FAILED });
  }
}

/** Picks or drops a channel; a picked one gets the next colour of the palette. */
export function toggleChannel(channelId: number) {
  const { channels, thresholds } = $draft.get();
  if (channels.some((c) => c.channelId === channelId)) {
    $draft.setKey(
      "channels",
      channels.filter((c) => c.channelId !== channelId),
    );
    $draft.setKey(
      "thresholds",
      thresholds.map((t) => (t.channelId === channelId ? { ...t, channelId: null } : t)),
    );
    return;
  }
  const color =
    PALETTE.find((p) => !channels.some((c) => c.color === p)) ?? PALETTE[channels.length % PALETTE.length]!;
  $draft.setKey("channels", [...channels, { channelId, color, axis: 0 }]);
}

export function setChannelColor(channelId: number, color: string) {
  $draft.setKey(
    "channels",
    $draft.get().channels.map((c) => (c.channelId === channelId ? { ...c, color } : c)),
  );
}

export function addThreshold() {
  const list = $draft.get().thresholds;
  const color = ["#ffcdd2", "#bbdefb", "#fff9c4", "#c8e6c9"][list.length % 4]!;
  $draft.setKey("thresholds", [...list, { name: "", channelId: null, min: "", max: "", color }]);
}

/** The request fields (and so the error fields) each part of the draft fills. */
const FIELDS_OF: Partial<Record<keyof ReportDraft, string[]>> = {
  name: ["name"],
  rolling: ["timeInterval", "startDate", "endDate"],
  start: ["startDate"],
  end: ["endDate"],
  mkt: ["mktActivationEnergy"],
};

/** A part of the draft as the person edits it; the error it answered goes at once. */
export function editDraft<K extends "name" | "rolling" | "start" | "end" | "mkt">(
  key: K,
  value: ReportDraft[K],
) {
  $draft.set({ ...$draft.get(), [key]: value });
  clearFieldErrors($reportForm, FIELDS_OF[key] ?? []);
}

export function changeThreshold(index: number, patch: Partial<ThresholdDraft>) {
  $draft.setKey(
    "thresholds",
    $draft.get().thresholds.map((t, i) => (i === index ? { ...t, ...patch } : t)),
  );
  const fields = Object.keys(patch).map((k) => (k === "min" ? "minValue" : k === "max" ? "maxValue" : k));
  clearFieldErrors(
    $reportForm,
    fields.map((f) => `thresholds.${index}.${f}`),
  );
}

export function removeThreshold(index: number) {
  $draft.setKey(
    "thresholds",
    $draft.get().thresholds.filter((_, i) => i !== index),
  );
}

const numberOrNull = (text: string): number | null | undefined => {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
};

/** The draft as the server takes it, or the messages the browser finds itself. */
export function inputOf(
  draft: ReportDraft,
  options: readonly ChannelOption[],
  prefs: { scale: TemperatureScale; zone: string },
): { ok: true; input: ReportInput } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const thresholds = draft.thresholds.map((t, i) => {
    const temp = rangeIsTemperature(t.channelId, draft, options);
    const value = (text: string, side: "minValue" | "maxValue") => {
      const n = numberOrNull(text);
      if (n === undefined) errors.push({ field: `thresholds.${i}.${side}`, message: "Must be a number." });
      return n === undefined || n === null ? null : temp ? toCelsius(n as never, prefs.scale) : n;
    };
    return {
      name: t.name,
      channelId: t.channelId,
      minValue: value(t.min, "minValue"),
      maxValue: value(t.max, "maxValue"),
      color: t.color,
    };
  });
  const fixed = draft.rolling === 0;
  const startDate = fixed ? zonedToEpoch(draft.start, prefs.zone) : null;
  const endDate = fixed ? zonedToEpoch(draft.end, prefs.zone) : null;
  if (fixed && startDate === null) errors.push({ field: "startDate", message: "Enter a start." });
  if (fixed && endDate === null) errors.push({ field: "endDate", message: "Enter an end." });
  const mktActivationEnergy = draft.mkt.trim() === "" ? Number.NaN : Number(draft.mkt);
  const mktRule = checkActivationEnergy(mktActivationEnergy);
  if (mktRule) errors.push({ field: "mktActivationEnergy", message: mktRule });
  if (errors.length) return { ok: false, errors };
  const input = {
    mktActivationEnergy,
    name: draft.name,
    timeInterval: draft.rolling,
    startDate,
    endDate,
    channels: draft.channels,
    thresholds,
  };
  return { ok: true, input };
}

/** Saves the form; the saved report's id, or null when it was refused (messages in $reportForm). */
export async function saveReport(options: readonly ChannelOption[]): Promise<number | null> {
  const draft = $draft.get();
  const built = inputOf(draft, options, $reportPrefs.get());
  if (!built.ok) {
    $reportForm.setKey("errors", built.errors);
    return null;
  }
  let saved: ReportDetail | null = null;
  await formTask($reportForm, async () => {
    saved =
      draft.id === null
        ? await call(createReport, built.input)
        : await call(updateReport, built.input, { id: draft.id });
  });
  const done = saved as ReportDetail | null;
  if (done) {
    const { channels: _c, thresholds: _t, ...summary } = done;
    listSummary(summary);
  }
  return done ? (done as ReportDetail).id : null;
}
