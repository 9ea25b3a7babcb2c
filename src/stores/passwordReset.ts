import { atom } from "nanostores";
import { RequestFailure, send, type FieldError } from "./http.ts";

/**
 * The page behind an emailed reset link: the link is checked, a new password is chosen, then
 * either the person is signed in (no one-time code) or told to sign in again, code and all.
 */
export type ResetState =
  | { step: "checking" }
  | { step: "broken"; errors: FieldError[] }
  | { step: "form"; busy: boolean; errors: FieldError[] }
  | { step: "signedIn" }
  | { step: "signInAgain" };

export const $reset = atom<ResetState>({ step: "checking" });

const failure = (e: unknown): FieldError[] =>
  e instanceof RequestFailure ? e.errors : [{ field: null, message: String(e) }];

/** Shows the form only for a link that is still good. */
export async function checkResetLink(token: string) {
  $reset.set({ step: "checking" });
  try {
    await send("account", `/gateway/reset-password/check?token=${encodeURIComponent(token)}`, {
      method: "get",
    });
    $reset.set({ step: "form", busy: false, errors: [] });
  } catch (e) {
    $reset.set({ step: "broken", errors: failure(e) });
  }
}

/** Saves the new password; a signed-in person goes on to the welcome page. */
export async function saveNewPassword(token: string, password: string) {
  $reset.set({ step: "form", busy: true, errors: [] });
  try {
    const data = await send<{ signedIn: boolean; mfaRequired: boolean }>(
      "account",
      "/gateway/reset-password",
      {
        form: { token, password },
      },
    );
    $reset.set({ step: data.signedIn ? "signedIn" : "signInAgain" });
    if (data.signedIn) location.assign("/user/welcome");
  } catch (e) {
    $reset.set({ step: "form", busy: false, errors: failure(e) });
  }
}
