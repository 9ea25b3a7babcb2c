import { atom, map } from "nanostores";
import type { FieldError } from "../api/errors.ts";
import { checkResetToken, requestPasswordReset, resetPassword } from "../api/gateway.ts";
import { PATHS } from "../domain/paths.ts";
import { type FormState, formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { go, queryParam } from "./navigate.ts";

/** The reset request: the form, then the server's "check your email" message. */
export const $resetRequest = map<FormState & { sent: string | null }>({
  busy: false,
  errors: [],
  sent: null,
});

/** Mails a reset link when the address has an account (the answer is the same either way). */
export const requestReset = (emailAddress: string) =>
  formTask($resetRequest, async () => {
    const { message } = await call(requestPasswordReset, { emailAddress });
    $resetRequest.setKey("sent", message);
  });

/**
 * The page behind an emailed reset link: the link is checked, a new password is chosen, then
 * either the person is signed in (no one-time code) or told to sign in again, code and all.
 */
export type ResetState =
  | { step: "checking" }
  | { step: "broken"; errors: FieldError[] }
  | { step: "form"; token: string }
  | { step: "signedIn" }
  | { step: "signInAgain" };

export const $reset = atom<ResetState>({ step: "checking" });
/** Busy and errors of the new-password form. */
export const $resetForm = formStore();

/** Shows the form only for a link (this page's ?token=) that is still good. */
export async function checkResetLink() {
  const token = queryParam("token") ?? "";
  $reset.set({ step: "checking" });
  try {
    await call(checkResetToken, { token });
    $reset.set({ step: "form", token });
  } catch (e) {
    $reset.set({ step: "broken", errors: errorsOf(e) });
  }
}

/** Saves the new password; a signed-in person goes on to the welcome page. */
export async function saveNewPassword(password: string) {
  const state = $reset.get();
  if (state.step !== "form") return;
  await formTask($resetForm, async () => {
    const data = await call(resetPassword, { token: state.token, password });
    $reset.set({ step: data.signedIn ? "signedIn" : "signInAgain" });
    if (data.signedIn) go(PATHS.welcome);
  });
}
