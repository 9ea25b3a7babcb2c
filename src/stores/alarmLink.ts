import { atom } from "nanostores";
import { acknowledgeByLink, alarmByLink, type Alarm } from "../api/alarms.ts";
import type { FieldError } from "../api/errors.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { queryParam } from "./navigate.ts";

/*
 * /alerts/acknowledge?token=: the page an alert email's link opens. Opening it changes nothing
 * (a mail scanner that follows links acknowledges nothing); the button with a note does.
 */

export type AlarmLinkState =
  | { step: "checking" }
  | { step: "broken"; errors: FieldError[] }
  | { step: "form"; token: string; alarm: Alarm; recipient: string }
  | { step: "done"; alarm: Alarm };

export const $alarmLink = atom<AlarmLinkState>({ step: "checking" });
export const $alarmLinkForm = formStore();

export async function checkAlarmLink() {
  const token = queryParam("token") ?? "";
  try {
    const { alarm, recipient } = await call(alarmByLink, { token });
    $alarmLink.set({ step: "form", token, alarm, recipient });
  } catch (e) {
    $alarmLink.set({ step: "broken", errors: errorsOf(e) });
  }
}

export async function acknowledgeFromLink(note: string) {
  const state = $alarmLink.get();
  if (state.step !== "form") return;
  await formTask($alarmLinkForm, async () => {
    const alarm = await call(acknowledgeByLink, { token: state.token, note });
    $alarmLink.set({ step: "done", alarm });
  });
}
