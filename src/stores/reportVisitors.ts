import { atom } from "nanostores";
import { getVisitorSettings, updateVisitorSettings, type VisitorSettings } from "../api/visitors.ts";
import { call, errorsOf } from "./http.ts";

/*
 * The report builder's visitor subscriptions (issue 36): the count of confirmed subscribers and
 * the "Visitors may subscribe" switch, saved as soon as it is flipped.
 */

export type VisitorSettingsState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; value: VisitorSettings; busy: boolean; error: string | null };

export const $reportVisitors = atom<VisitorSettingsState>({ status: "loading" });

const LOAD_FAILED = "Could not load the report's subscribers.";

/** Loads the report's settings and count. */
export async function loadReportVisitors(reportId: number) {
  $reportVisitors.set({ status: "loading" });
  try {
    const value = await call(getVisitorSettings, undefined, { id: reportId });
    $reportVisitors.set({ status: "ready", value, busy: false, error: null });
  } catch (e) {
    $reportVisitors.set({ status: "failed", message: errorsOf(e)[0]?.message ?? LOAD_FAILED });
  }
}

/** Turns subscriptions on or off; on failure the switch shows what is saved again. */
export async function setVisitorsMaySubscribe(reportId: number, on: boolean) {
  const state = $reportVisitors.get();
  if (state.status !== "ready" || state.busy) return;
  // Shown flipped while it saves; a failure puts back what is saved.
  $reportVisitors.set({
    ...state,
    value: { ...state.value, visitorsMaySubscribe: on },
    busy: true,
    error: null,
  });
  try {
    const value = await call(updateVisitorSettings, { visitorsMaySubscribe: on }, { id: reportId });
    $reportVisitors.set({ status: "ready", value, busy: false, error: null });
  } catch (e) {
    $reportVisitors.set({ ...state, busy: false, error: errorsOf(e)[0]?.message ?? LOAD_FAILED });
  }
}
