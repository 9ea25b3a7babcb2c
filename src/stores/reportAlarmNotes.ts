import { atom } from "nanostores";
import { getReportAlarmNotes, setReportAlarmNotes } from "../api/chartMarks.ts";
import { call } from "./http.ts";

/*
 * The report form's "Show alarm notes and names on the public report" (issue 36): loaded with
 * the report, saved right after the report itself (a new report gets its id from that save).
 */

export const ALARM_NOTES_FAILED =
  "The report was saved, but showing alarm notes could not be changed. Please try again.";

export const $alarmNotes = atom({ show: false, error: null as string | null });

/** The report's choice, or off for a new report (and while it cannot be read). */
export async function loadAlarmNotes(id: number | null) {
  $alarmNotes.set({ show: false, error: null });
  if (id === null) return;
  try {
    $alarmNotes.set({ show: (await call(getReportAlarmNotes, undefined, { id })).show, error: null });
  } catch {
    /* Off until the person chooses: the public page shows less, never more. */
  }
}

export function setAlarmNotes(show: boolean) {
  $alarmNotes.set({ show, error: null });
}

/** Saves the choice on the saved report; false (with a message) when it failed. */
export async function saveAlarmNotes(id: number): Promise<boolean> {
  try {
    await call(setReportAlarmNotes, { show: $alarmNotes.get().show }, { id });
    return true;
  } catch {
    $alarmNotes.set({ ...$alarmNotes.get(), error: ALARM_NOTES_FAILED });
    return false;
  }
}
