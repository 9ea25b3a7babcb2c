import { atom, computed, onMount } from "nanostores";
import { listReports, type ReportSummary } from "../api/reportBuilder.ts";
import { roleMay } from "../domain/permissions.ts";
import { isRoleId } from "../domain/roles.ts";
import { resolveTemperatureScale, type TemperatureScale } from "../domain/temperature.ts";
import { isKnownTimezone } from "../domain/timezones.ts";
import { call, errorsOf } from "./http.ts";
import { $session } from "./session.ts";

/*
 * The subscription's reports as the Reports page lists them, and the person's preferences the
 * list and the report form both show values in. The form itself is in reports.ts.
 */

export const LOAD_FAILED = "Unexpected error loading reports.";
export const LINK_FAILED = "Error changing the public link. Please try again.";

export type Loaded<T> =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; value: T };

/** The person's scale and zone, and whether their role edits reports (the server checks again). */
export const $reportPrefs = computed($session, (s) => {
  if (s.status !== "signedIn") return { scale: "C" as TemperatureScale, zone: "UTC", editable: false };
  const role = s.info.activeSubscription.role.id;
  return {
    scale: resolveTemperatureScale(s.info.temperatureScale),
    zone: isKnownTimezone(s.info.timezone) ? s.info.timezone : "UTC",
    editable: isRoleId(role) && roleMay(role, "report.edit"),
  };
});

/** The subscription's reports, asked for each time the list starts showing. */
export const $reports = atom<Loaded<ReportSummary[]>>({ status: "loading" });
onMount($reports, () => {
  void loadReports();
});

export async function loadReports() {
  try {
    $reports.set({ status: "ready", value: await call(listReports) });
  } catch (e) {
    $reports.set({ status: "failed", message: errorsOf(e)[0]?.message ?? LOAD_FAILED });
  }
}

/** Puts a changed report into the list in place (or drops a deleted one). */
export function putSummary(id: number, next: ReportSummary | null) {
  const state = $reports.get();
  if (state.status !== "ready") return;
  const list = state.value.filter((r) => r.id !== id || next);
  $reports.set({ status: "ready", value: list.map((r) => (r.id === id && next ? next : r)) });
}

/** Puts a saved report into the list: in its place, or at the end when it is new. */
export function listSummary(summary: ReportSummary) {
  const state = $reports.get();
  if (state.status === "ready" && !state.value.some((r) => r.id === summary.id))
    $reports.set({ status: "ready", value: [...state.value, summary] });
  else putSummary(summary.id, summary);
}
