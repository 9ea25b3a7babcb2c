import { atom, onMount } from "nanostores";
import type { EpochSeconds } from "../domain/brand.ts";
import { send } from "./http.ts";

/** One signed-in browser of the person, as /api/v1/account/sessions describes it. */
export interface AccountSession {
  /** e.g. "Firefox on Windows" */
  browser: string;
  createdAt: EpochSeconds;
  /** Updated at most hourly. */
  lastSeenAt: EpochSeconds;
  /** The session of this very browser. */
  current: boolean;
}

export type SessionsState =
  { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; list: AccountSession[] };

/** The person's live sessions, newest first. */
export const $sessions = atom<SessionsState>({ status: "loading" });

onMount($sessions, () => {
  void loadSessions();
});

export async function loadSessions() {
  try {
    const list = await send<AccountSession[]>("api", "/api/v1/account/sessions", { method: "get" });
    $sessions.set({ status: "ready", list });
  } catch (e) {
    $sessions.set({ status: "failed", message: (e as Error).message });
  }
}

/** "Sign out everywhere else": ends every session but this browser's; returns how many ended. */
export async function endOtherSessions(): Promise<number> {
  const { ended } = await send<{ ended: number }>("api", "/api/v1/account/sessions/others", {
    method: "delete",
  });
  await loadSessions();
  return ended;
}
