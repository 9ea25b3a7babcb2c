import {
  createReportLink,
  deleteReport,
  deleteReportLink,
  updateReportLink,
  type ReportSummary,
} from "../api/reportBuilder.ts";
import { publicReportPath } from "../domain/paths.ts";
import { zonedInput, zonedToEpoch } from "./explore.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf, RequestFailure } from "./http.ts";
import { here } from "./navigate.ts";
import { LINK_FAILED, putSummary } from "./reportList.ts";

/* The report list's delete and the public link dialog's calls (issue 10's builder). */

/** The link dialog's busy flag and messages, and the report list's delete. */
export const $linkTask = formStore();
export const $deleteTask = formStore();

export async function removeReport(id: number): Promise<boolean> {
  const ok = await formTask($deleteTask, () => call(deleteReport, undefined, { id }));
  if (ok) putSummary(id, null);
  return ok;
}

const linkCall = (task: () => Promise<ReportSummary>) =>
  formTask($linkTask, async () => {
    try {
      const next = await task();
      putSummary(next.id, next);
    } catch (e) {
      const named = errorsOf(e).find((x) => x.field !== null);
      throw new RequestFailure([named ?? { field: null, message: LINK_FAILED }]);
    }
  });

/** Shares the report, or gives it a new link (the old one fails at once). */
export const shareReport = (id: number, expiresAt: number | null = null) =>
  linkCall(() => call(createReportLink, { expiresAt }, { id }));
export const pauseLink = (id: number, paused: boolean) =>
  linkCall(() => call(updateReportLink, { paused }, { id }));
export const setLinkExpiry = (id: number, expiresAt: number | null) =>
  linkCall(() => call(updateReportLink, { expiresAt }, { id }));
export const unshareReport = (id: number) => linkCall(() => call(deleteReportLink, undefined, { id }));

/** The public page's full address. */
export const publicReportUrl = (hash: string) => `${here().origin}${publicReportPath(hash)}`;

/** The same report for a wall display: large current readings and the chart, no controls. */
export const kioskReportUrl = (hash: string) => `${publicReportUrl(hash)}?kiosk=1`;

/** Copies the link; true when the clipboard took it. */
export async function copyLink(hash: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(publicReportUrl(hash));
    return true;
  } catch {
    return false;
  }
}

/** The expiry date input's text (the person's zone), and back: the end of that day. */
export const expiryInput = (epoch: number | null, zone: string) =>
  epoch === null ? "" : zonedInput(epoch, zone).slice(0, 10);
export const expiryOf = (date: string, zone: string) => (date ? zonedToEpoch(`${date}T23:59`, zone) : null);
