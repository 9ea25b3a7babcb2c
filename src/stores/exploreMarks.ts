import { atom, computed, map, onMount } from "nanostores";
import {
  addChartComment,
  COMMENT_REQUIRED,
  COMMENT_TIME,
  deleteChartComment,
  getChannelMarks,
  type ChartMarksView,
} from "../api/chartMarks.ts";
import { chartMarks } from "../domain/chartMarks.ts";
import { isRoleId } from "../domain/roles.ts";
import { roleMay } from "../domain/permissions.ts";
import { $devicePrefs } from "./device.ts";
import { $explore, zonedInput, zonedToEpoch } from "./explore.ts";
import { formStore, formTask, showErrors } from "./formTask.ts";
import { call } from "./http.ts";
import { $session } from "./session.ts";

/*
 * The explore chart's alarms and pinned comments (issue 36): loaded with each history the page
 * shows, and the form that pins a comment to a time (picked on the chart or typed) on the
 * channel. Administrators and Managers pin and delete (chart.comment); the server checks again.
 */

export const $exploreMarks = atom<ChartMarksView>({ alarms: [], comments: [] });
/** The comment being written: a wall-clock time in the person's zone ('YYYY-MM-DDTHH:mm') and its text. */
export const $commentDraft = map({ at: "", text: "" });
export const $commentForm = formStore();

/** Whether the person's role pins comments. */
export const $mayComment = computed($session, (s) => {
  const role = s.status === "signedIn" ? s.info.activeSubscription.role.id : null;
  return role !== null && isRoleId(role) && roleMay(role, "chart.comment");
});

let asked = 0;

/** Reads the marks of the history just shown; a failure leaves the chart without them. */
export async function loadExploreMarks(channelKey: string, start: number, end: number) {
  const ask = ++asked;
  try {
    const marks = await call(getChannelMarks, { start: String(start), end: String(end) }, { channelKey });
    if (ask === asked) $exploreMarks.set(marks);
  } catch {
    if (ask === asked) $exploreMarks.set({ alarms: [], comments: [] });
  }
}

onMount($exploreMarks, () =>
  $explore.subscribe((s) => {
    if (s.status !== "ready") return;
    const { channel, start, end } = s.history;
    void loadExploreMarks(channel.channelKey, start, end);
  }),
);

/** A time picked on the chart (epoch seconds) goes into the form, in the person's zone. */
export function pickCommentTime(at: number) {
  $commentDraft.setKey("at", zonedInput(Math.round(at), $devicePrefs.get().zone));
}

/** Pins the draft to the channel; true when it was saved (the chart shows it at once). */
export async function pinComment(channelKey: string): Promise<boolean> {
  const { at, text } = $commentDraft.get();
  const epoch = zonedToEpoch(at, $devicePrefs.get().zone);
  const errors = [
    ...(epoch === null ? [{ field: "at", message: COMMENT_TIME }] : []),
    ...(text.trim() ? [] : [{ field: "text", message: COMMENT_REQUIRED }]),
  ];
  if (errors.length) return (showErrors($commentForm, errors), false);
  return formTask($commentForm, async () => {
    const made = await call(addChartComment, { channelKey, at: epoch!, text });
    const marks = $exploreMarks.get();
    $exploreMarks.set({ ...marks, comments: [...marks.comments, made].sort((a, b) => a.at - b.at) });
    $commentDraft.set({ at: "", text: "" });
  });
}

/** Deletes a pinned comment. */
export async function removeComment(id: number) {
  await formTask($commentForm, async () => {
    await call(deleteChartComment, undefined, { id });
    const marks = $exploreMarks.get();
    $exploreMarks.set({ ...marks, comments: marks.comments.filter((c) => c.id !== id) });
  });
}

/** The marks the explore chart draws: the channel's alarms and comments inside the range shown. */
export const $exploreChartMarks = computed([$explore, $exploreMarks], (s, marks) => {
  if (s.status !== "ready") return [];
  const { channel, start, end } = s.history;
  return chartMarks(marks.alarms, marks.comments, { from: start, to: end }, () => channel.name);
});
