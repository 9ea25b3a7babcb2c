import { map } from "nanostores";
import { checkEmail, submitPassword as submitPasswordCall, verifyOtp } from "../api/gateway.ts";
import type { FieldError } from "../api/errors.ts";
import { INVALID_EMAIL } from "../domain/auth.ts";
import { samlLoginPath, withNext } from "../domain/paths.ts";
import { loadConfig } from "./config.ts";
import { formTask } from "./formTask.ts";
import { handOverAddress } from "./handover.ts";
import { call } from "./http.ts";
import { currentPath, go, reload } from "./navigate.ts";

/** The sign-in card: email (0), password (1), one-time code (2). */
export interface SignInState {
  step: 0 | 1 | 2;
  email: string;
  mfaRequired: boolean;
  busy: boolean;
  errors: FieldError[];
}
const INITIAL: SignInState = { step: 0, email: "", mfaRequired: false, busy: false, errors: [] };

export const $signIn = map<SignInState>({ ...INITIAL });

/**
 * Federated sign-in: off to the identity provider, and back to this very page afterwards,
 * which then carries on as after any sign-in (the gateway follows its `next`, a record card
 * opens the record).
 */
export async function toIdentityProvider(configName: string) {
  const { accountBase } = await loadConfig();
  go(accountBase + withNext(samlLoginPath(configName), currentPath()));
}

/** Typing into a field clears the errors shown. */
export function clearSignInErrors() {
  if ($signIn.get().errors.length) $signIn.setKey("errors", []);
}

/** Starts the card over, or at the password step for a known address. */
export function resetSignIn(start?: { email: string; mfaRequired: boolean }) {
  $signIn.set({
    ...INITIAL,
    ...(start ? { step: 1, email: start.email, mfaRequired: start.mfaRequired } : {}),
  });
}

/** Back from the password step to change the address (the typed one stays in the field). */
export function changeEmail() {
  $signIn.set({ ...INITIAL, email: $signIn.get().email });
}

/** "Forgot Password": the reset page opening in a new tab starts with this address. */
export function forgotPassword() {
  handOverAddress($signIn.get().email);
}

/** Step 0: federated addresses go to their identity provider; others on to the password. */
export async function submitEmail(typed: string) {
  const email = typed.trim();
  if (email === "") {
    $signIn.setKey("errors", [{ field: "emailAddress", message: INVALID_EMAIL }]);
    return;
  }
  await formTask($signIn, async () => {
    const data = await call(checkEmail, { emailAddress: email });
    if (data.samlConfigName) return toIdentityProvider(data.samlConfigName);
    $signIn.set({ ...$signIn.get(), email, mfaRequired: data.mfaRequired, step: 1 });
  });
}

/** Step 1: the password; then the code when one is needed, else signed in (the page reloads). */
export async function submitPassword(password: string) {
  const { email } = $signIn.get();
  await formTask($signIn, async () => {
    const data = await call(submitPasswordCall, { emailAddress: email, password });
    if (data.mfaRequired) $signIn.set({ ...$signIn.get(), mfaRequired: true, step: 2 });
    else reload();
  });
}

/** Step 2: the one-time code, optionally remembering this browser for 30 days. */
export async function submitOtp(otp: string, remember: boolean) {
  await formTask($signIn, async () => {
    await call(verifyOtp, { otp: otp.trim(), remember: remember ? "1" : "0" });
    reload();
  });
}
