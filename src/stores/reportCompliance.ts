import { atom } from "nanostores";
import type { ReportCompliance } from "../api/reportCompliance.ts";
import { PUBLIC_API } from "../api/paths.ts";
import { apiBase } from "./report.ts";

/*
 * The public report page's compliance figures (issue 36): asked once the chart data is in, then
 * at most every five minutes (they read every reading of the window, a year's worth for a
 * year's report; the chart's 30-second refresh would ask far too often). Plain fetch, as the
 * report store, so the page loads no schema library.
 */

export type ComplianceState =
  { status: "idle" | "loading" | "failed" } | { status: "ready"; value: ReportCompliance };

export const $compliance = atom<ComplianceState>({ status: "idle" });
/** The figures are asked again after this long at the earliest. */
export const COMPLIANCE_REFRESH_MS = 5 * 60_000;

let asked = { hash: "", at: Number.NEGATIVE_INFINITY };

/** Asks for the report's figures unless they were asked for lately; a failure keeps what was shown. */
export async function loadCompliance(hash: string, now = Date.now()) {
  const state = $compliance.get();
  if (asked.hash === hash && now - asked.at < COMPLIANCE_REFRESH_MS && state.status !== "failed") return;
  asked = { hash, at: now };
  if (state.status !== "ready") $compliance.set({ status: "loading" });
  try {
    const path = PUBLIC_API.reportCompliance.replace(":hash", encodeURIComponent(hash));
    const res = await fetch(apiBase() + path, { headers: { accept: "application/json" } });
    const body = (await res.json()) as { success?: boolean; data?: ReportCompliance };
    if (!res.ok || body.success !== true || !body.data) throw new Error(`${path} answered ${res.status}`);
    $compliance.set({ status: "ready", value: body.data });
  } catch {
    if ($compliance.get().status !== "ready") $compliance.set({ status: "failed" });
  }
}

/** Forgets what was asked (tests, and a page that opens another report). */
export function resetCompliance() {
  asked = { hash: "", at: Number.NEGATIVE_INFINITY };
  $compliance.set({ status: "idle" });
}
