import { atom } from "nanostores";
import { send } from "./http.ts";
import { safeNextPath } from "../domain/auth.ts";

export interface Role {
  id: number;
  name: string;
  displayName: string;
}
export interface SessionInformation {
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  timezone: string;
  temperatureScale: "C" | "F";
  activeSubscriptionId: number;
  userAssignmentList: { id: number; subscriptionId: number; subscriptionName: string; role: Role }[];
  activeSubscription: { id: number; name: string; role: Role; tier: { name: string }; samlEnabled: boolean };
}
export type SessionState =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "signedIn"; info: SessionInformation; termsAccepted: boolean };

export const $session = atom<SessionState>({ status: "loading" });

/** Asks the server who is signed in; any failure means not signed in. */
export async function loadSession(): Promise<SessionState> {
  try {
    const data = await send<{ sessionInformation: SessionInformation; termsAccepted: boolean }>(
      "api",
      "/api/v1/session",
      {
        method: "get",
      },
    );
    $session.set({ status: "signedIn", info: data.sessionInformation, termsAccepted: data.termsAccepted });
  } catch {
    $session.set({ status: "anonymous" });
  }
  return $session.get();
}

/** Where to go after signing in: a same-site `next` path, else the welcome page. */
export function nextPath(search: string): string {
  return safeNextPath(new URLSearchParams(search).get("next"));
}

/**
 * For signed-in pages: sends visitors to sign in, and a fresh session whose terms are not
 * accepted to the acknowledgement page. Resolves with the session when the page may show.
 */
export async function requireSignedIn(): Promise<Extract<SessionState, { status: "signedIn" }> | null> {
  const state = await loadSession();
  const here = location.pathname + location.search;
  if (state.status !== "signedIn") {
    location.assign(`/gateway?next=${encodeURIComponent(here)}`);
    return null;
  }
  if (!state.termsAccepted && location.pathname !== "/terms/acknowledge") {
    location.assign(`/terms/acknowledge?next=${encodeURIComponent(here)}`);
    return null;
  }
  return state;
}

/** Signs out and goes to the sign-in page. */
export async function signOut() {
  await send("account", "/gateway/logout", { form: {} }).catch(() => {});
  $session.set({ status: "anonymous" });
  location.assign("/gateway");
}
