import { atom, map } from "nanostores";
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  updateSchedule,
  type Member,
  type Schedule,
  type ScheduleInput,
} from "../api/reportSchedules.ts";
import { formStore, formTask, showErrors } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";

/* The report builder's mail schedules: the list with its delivery log, and the add/edit form. */

export type SchedulesState =
  | { status: "loading"; reportId: number }
  | { status: "failed"; reportId: number; message: string }
  | { status: "ready"; reportId: number; schedules: Schedule[]; members: Member[] };

export const $schedules = atom<SchedulesState | null>(null);
export const $scheduleForm = formStore();
export const $scheduleRowTask = formStore();

/** The form's fields as typed; addresses one per line (or separated by commas). */
export interface ScheduleDraft {
  editing: number | null;
  cadence: ScheduleInput["cadence"];
  hour: number;
  weekday: number;
  timeZone: string;
  scale: "F" | "C";
  format: ScheduleInput["format"];
  userIds: number[];
  emails: string;
}

const blank = (zone: string, scale: "F" | "C"): ScheduleDraft => ({
  editing: null,
  cadence: "weekly",
  hour: 7,
  weekday: 1,
  timeZone: zone,
  scale,
  format: "pdf",
  userIds: [],
  emails: "",
});

export const $scheduleDraft = map<ScheduleDraft>(blank("UTC", "F"));

const LOAD_FAILED = "Schedules could not be loaded. Try again.";

/** Loads a report's schedules (and the members one may pick). */
export async function loadSchedules(reportId: number) {
  $schedules.set({ status: "loading", reportId });
  try {
    const got = await call(listSchedules, undefined, { id: reportId });
    $schedules.set({ status: "ready", reportId, ...got });
  } catch (e) {
    $schedules.set({ status: "failed", reportId, message: errorsOf(e)[0]?.message ?? LOAD_FAILED });
  }
}

/** A fresh form in the person's zone and scale. */
export function newScheduleDraft(zone: string, scale: "F" | "C") {
  $scheduleDraft.set(blank(zone, scale));
  showErrors($scheduleForm, []);
}

export function editScheduleDraft<K extends keyof ScheduleDraft>(key: K, value: ScheduleDraft[K]) {
  $scheduleDraft.set({ ...$scheduleDraft.get(), [key]: value });
}

/** Fills the form with a schedule to change it. */
export function startEditSchedule(s: Schedule) {
  $scheduleDraft.set({ ...s, editing: s.id, emails: s.emails.join("\n") });
  showErrors($scheduleForm, []);
}

const addresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

function inputOf(d: ScheduleDraft, paused: boolean): ScheduleInput {
  return {
    cadence: d.cadence,
    hour: d.hour,
    weekday: d.weekday,
    timeZone: d.timeZone,
    scale: d.scale,
    format: d.format,
    userIds: d.userIds,
    emails: addresses(d.emails),
    paused,
  };
}

function put(saved: Schedule) {
  const state = $schedules.get();
  if (state?.status !== "ready") return;
  const known = state.schedules.some((s) => s.id === saved.id);
  const schedules = known
    ? state.schedules.map((s) => (s.id === saved.id ? saved : s))
    : [...state.schedules, saved];
  $schedules.set({ ...state, schedules });
}

/** Adds or changes the schedule in the form; true when saved. */
export function saveSchedule(reportId: number, zone: string, scale: "F" | "C") {
  const d = $scheduleDraft.get();
  const current = $schedules.get();
  const paused =
    current?.status === "ready"
      ? (current.schedules.find((s) => s.id === d.editing)?.paused ?? false)
      : false;
  return formTask($scheduleForm, async () => {
    const saved =
      d.editing === null
        ? await call(createSchedule, inputOf(d, false), { id: reportId })
        : await call(updateSchedule, inputOf(d, paused), { id: d.editing });
    put(saved);
    newScheduleDraft(zone, scale);
  });
}

/** Pauses or resumes a schedule as it stands. */
export const pauseSchedule = (s: Schedule, paused: boolean) =>
  formTask($scheduleRowTask, async () => put(await call(updateSchedule, { ...s, paused }, { id: s.id })));

/** Deletes a schedule and its log. */
export const removeSchedule = (id: number) =>
  formTask($scheduleRowTask, async () => {
    await call(deleteSchedule, undefined, { id });
    const state = $schedules.get();
    if (state?.status === "ready")
      $schedules.set({ ...state, schedules: state.schedules.filter((s) => s.id !== id) });
  });
