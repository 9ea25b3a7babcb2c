import { atom, onMount } from "nanostores";
import { logout } from "../api/gateway.ts";
import { getSession } from "../api/session.ts";
import type { SessionInformation } from "../api/session.ts";
import { safeNextPath } from "../domain/auth.ts";
import { PATHS, withNext } from "../domain/paths.ts";
import { call } from "./http.ts";
import { currentPath, go, here, queryParam, replaceWith } from "./navigate.ts";

export type SessionState =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "signedIn"; info: SessionInformation; termsAccepted: boolean };
export type SignedIn = Extract<SessionState, { status: "signedIn" }>;

/** Who is signed in; asks the server when first used. */
export const $session = atom<SessionState>({ status: "loading" });

onMount($session, () => {
  if ($session.get().status === "loading") void loadSession();
});

let asking: Promise<SessionState> | null = null;

/** Asks the server who is signed in (one question at a time); any failure means not signed in. */
export function loadSession(): Promise<SessionState> {
  asking ??= (async () => {
    try {
      const data = await call(getSession);
      $session.set({ status: "signedIn", info: data.sessionInformation, termsAccepted: data.termsAccepted });
    } catch {
      $session.set({ status: "anonymous" });
    }
    return $session.get();
  })().finally(() => (asking = null));
  return asking;
}

/** Where to go after signing in: a same-site `next` path of this page, else the welcome page. */
export function nextPath(): string {
  return safeNextPath(queryParam("next"), PATHS.welcome);
}

/**
 * For signed-in pages: sends visitors to sign in, and a fresh session whose terms are not
 * accepted to the acknowledgement page. Resolves with the session when the page may show.
 */
export async function requireSignedIn(): Promise<SignedIn | null> {
  const state = await loadSession();
  if (state.status !== "signedIn") {
    go(withNext(PATHS.gateway, currentPath()));
    return null;
  }
  if (!state.termsAccepted && here().pathname !== PATHS.termsAcknowledge) {
    go(withNext(PATHS.termsAcknowledge, currentPath()));
    return null;
  }
  return state;
}

/** The sign-in page: a visitor who is signed in already goes straight on. */
export async function leaveIfSignedIn() {
  if ((await loadSession()).status === "signedIn") replaceWith(nextPath());
}

/** Signs out and goes to the sign-in page. */
export async function signOut() {
  await call(logout).catch(() => {});
  $session.set({ status: "anonymous" });
  go(PATHS.gateway);
}
