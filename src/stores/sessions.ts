import { atom, map, onMount } from "nanostores";
import { endOtherSessions as endOthersCall, listSessions, type SessionRow } from "../api/accounts.ts";
import type { EpochSeconds } from "../domain/brand.ts";
import { type FormState, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";

/** One signed-in browser of the person; times in epoch seconds. */
export type AccountSession = Omit<SessionRow, "createdAt" | "lastSeenAt"> & {
  createdAt: EpochSeconds;
  lastSeenAt: EpochSeconds;
};

export type SessionsState =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; list: AccountSession[] };

/** The person's live sessions, newest first; loads when shown. */
export const $sessions = atom<SessionsState>({ status: "loading" });
/** "Sign out everywhere else": busy, errors, and how many sessions the last press ended. */
export const $endOthers = map<FormState & { ended: number | null }>({ busy: false, errors: [], ended: null });

onMount($sessions, () => {
  void loadSessions();
});

export async function loadSessions() {
  try {
    const list = (await call(listSessions)) as AccountSession[];
    $sessions.set({ status: "ready", list });
  } catch (e) {
    $sessions.set({ status: "failed", message: errorsOf(e)[0]?.message ?? "" });
  }
}

/** Ends every session but this browser's and lists what is left. */
export async function endOtherSessions() {
  $endOthers.setKey("ended", null);
  await formTask($endOthers, async () => {
    const { ended } = await call(endOthersCall);
    $endOthers.setKey("ended", ended);
    await loadSessions();
  });
}
