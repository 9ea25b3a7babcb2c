import { atom } from "nanostores";
import type { ChartMarksView } from "../api/chartMarks.ts";
import { getData } from "./report.ts";

/*
 * The public report's alarms and pinned comments (issue 36), loaded by the interactive chart
 * for the window it draws, again with each refresh. Not part of the page's first script: the
 * server's picture already carries them.
 */

export const REPORT_MARKS_PATH = "/api/v1/device-data/public/report/marks/";
export const $reportMarks = atom<ChartMarksView>({ alarms: [], comments: [] });

let asked = "";

/** Loads the marks of the window once per window; a failure leaves the last ones drawn. */
export async function loadReportMarks(hash: string, window: { start: number; end: number }) {
  const query = `?start=${window.start}&end=${window.end}`;
  if (asked === hash + query) return;
  asked = hash + query;
  try {
    $reportMarks.set(await getData<ChartMarksView>(REPORT_MARKS_PATH + encodeURIComponent(hash), query));
  } catch {
    asked = "";
  }
}
