import { atom } from "nanostores";
import { unpackSeries } from "../domain/chartPoints.ts";
import type { PublicReport, ReportData, ReportDataWire, ReportSensor } from "../api/reports.ts";
import { celsius } from "../domain/brand.ts";
import { TEMPERATURE_KINDS, unitIn } from "../domain/device.ts";
import { fromCelsius, resolveTemperatureScale, type TemperatureScale } from "../domain/temperature.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { here } from "./navigate.ts";
import { readInlineConfig } from "./inlineConfig.ts";

/*
 * The public report page's state (spec sections 2 and 4): the report and its chart data, the
 * visitor's scale and zone, and the 30-second refresh. Shared by the page's small first script
 * and the chart island, so it calls the API with plain fetch and no schemas (the first script
 * must stay under 15 KB gzip; ky and zod would take most of that).
 */

export const REPORT_INVALID = "Invalid Report Link";
export const NO_CHANNELS = "No sensor channels currently available.";
/** Spec section 9: metadata and chart data every 30 seconds. */
export const REFRESH_MS = 30_000;
/** Kiosk retries after a dropped network: 5 s, doubling, at most a minute apart. */
export const RETRY_FIRST_MS = 5_000;
export const RETRY_MAX_MS = 60_000;

export const REPORT_API = {
  report: "/api/v1/device-data/public/report/:publicHash",
  data: "/api/v1/device-data/public/report/data/:hash",
  csv: "/api/v1/device-data/public/samples/csv",
  pdf: "/public/report-pdf/",
} as const;

export interface ReportView {
  scale: TemperatureScale;
  zone: string;
}

export type ReportState =
  | { status: "loading" }
  | { status: "invalid" }
  | {
      status: "ready";
      report: PublicReport;
      data: ReportData;
      /** Epoch ms of the last answer; staleSince is set while refreshes fail. */
      fetchedAt: number;
      staleSince: number | null;
    };

export const $report = atom<ReportState>({ status: "loading" });
export const $view = atom<ReportView>({ scale: "F", zone: "UTC" });

/** The scale and zone an address asks for: unknown values fall back to F and UTC (spec section 5). */
export function viewOf(search: string): ReportView {
  const q = new URLSearchParams(search);
  const zone = q.get("timezone") ?? "";
  return { scale: resolveTemperatureScale(q.get("tempScale")), zone: isKnownTimezone(zone) ? zone : "UTC" };
}

/** The address's query with the view written in; other parameters (kiosk, theme) are kept. */
export function searchWith(search: string, view: ReportView): string {
  const q = new URLSearchParams(search);
  q.set("tempScale", view.scale);
  q.set("timezone", view.zone);
  return `?${q.toString()}`;
}

export function setScale(scale: TemperatureScale) {
  $view.set({ ...$view.get(), scale });
}

export function setZone(zone: string) {
  $view.set({ ...$view.get(), zone: isKnownTimezone(zone) ? zone : "UTC" });
}

/** A channel's value as the visitor sees it: temperatures in their scale, others as read. */
export function shown(value: number, kind: string, scale: TemperatureScale): number {
  return TEMPERATURE_KINDS.includes(kind)
    ? fromCelsius(celsius(value), scale)
    : Math.round(value * 100) / 100;
}

/** The unit after a value: °F/°C for temperatures, else the channel's own. */
export function unitOf(sensor: Pick<ReportSensor, "kind" | "units">, scale: TemperatureScale): string {
  return unitIn(sensor.kind, sensor.units, scale);
}

/** A report answer that is not there, as opposed to no answer at all. */
export class ReportGone extends Error {}

type Fetcher = (url: string) => Promise<Response>;
/**
 * The public report page's one way to the API. It is the exception to "every call through
 * http.ts's ky instance": the page paints on a slow link from a script without ky or the
 * contracts' zod (docs/decisions.md, "Browser code and the project's rules").
 */
let fetcher: Fetcher = (url) => fetch(url, { headers: { accept: "application/json" } });

/** Tests and the page's early request replace the fetch. */
export function setFetcher(next: Fetcher) {
  fetcher = next;
}

/** The API's base: the runtime configuration's, else this origin. */
export function apiBase(): string {
  return (typeof document === "undefined" ? null : readInlineConfig(document))?.apiBase || here().origin;
}

export async function getData<T>(path: string, query = ""): Promise<T> {
  const res = await fetcher(apiBase() + path + query);
  if (res.status === 404 || res.status === 400) throw new ReportGone(`${path} answered ${res.status}`);
  const body = (await res.json()) as { success?: boolean; data?: unknown };
  if (!res.ok || body.success !== true) throw new Error(`${path} answered ${res.status}`);
  return body.data as T;
}

const pathTo = (path: string, name: string, hash: string) =>
  path.replace(`:${name}`, encodeURIComponent(hash));

/** The report and its chart data, both at once. `refresh` marks the 30-second refreshes (not views). */
export async function fetchReport(hash: string, refresh: boolean) {
  const [report, data] = await Promise.all([
    getData<PublicReport>(pathTo(REPORT_API.report, "publicHash", hash), refresh ? "?refresh=1" : ""),
    getData<ReportDataWire>(pathTo(REPORT_API.data, "hash", hash)),
  ]);
  return { report, data: { ...data, series: data.series.map(unpackSeries) } };
}

/**
 * Loads the report, or marks it invalid (spec 4): a link that is gone, or a first load that
 * fails. A refresh the network or server fails keeps the last chart (the page shows 'stale
 * since') and the next one tries again: a phone in a lift is not holding an invalid link.
 */
export async function loadReport(hash: string, opts: { refresh: boolean; now?: () => number }) {
  const now = opts.now ?? Date.now;
  try {
    const got = await fetchReport(hash, opts.refresh);
    $report.set({ status: "ready", ...got, fetchedAt: now(), staleSince: null });
    return true;
  } catch (e) {
    const last = $report.get();
    if (!(e instanceof ReportGone) && last.status === "ready") {
      $report.set({ ...last, staleSince: last.staleSince ?? last.fetchedAt });
      return false;
    }
    $report.set({ status: "invalid" });
    return false;
  }
}

/**
 * The wait before the next refresh: the period after a success; after failures a back-off
 * from the shorter of the period and 5 s, doubling, at most a minute (a display does not
 * hammer a server that is coming back, and finds it within a minute).
 */
export function nextDelay(failures: number, periodMs: number): number {
  if (failures === 0) return periodMs;
  return Math.min(RETRY_MAX_MS, Math.min(periodMs, RETRY_FIRST_MS) * 2 ** (failures - 1));
}

/** Kiosk's refresh period: `refreshSeconds` (1 to 3600, for tests and soaks), else 30 s. */
export function periodOf(search: string): number {
  const s = Number(new URLSearchParams(search).get("refreshSeconds"));
  return Number.isInteger(s) && s >= 1 && s <= 3600 ? s * 1000 : REFRESH_MS;
}

/**
 * Loads the report, then refreshes it every `periodMs` until stopped or invalid; failures are
 * retried with back-off. One timer at a time, so nothing piles up over weeks.
 */
export function followReport(hash: string, opts: { periodMs?: number | undefined }) {
  const period = opts.periodMs ?? REFRESH_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let failures = 0;
  const run = async (refresh: boolean) => {
    const ok = await loadReport(hash, { refresh });
    failures = ok ? 0 : failures + 1;
    if (stopped || $report.get().status === "invalid") return;
    timer = setTimeout(() => void run(true), nextDelay(failures, period));
  };
  void run(false);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
