import { map } from "nanostores";
import { INVALID_EMAIL } from "../domain/auth.ts";
import { loadConfig } from "./config.ts";
import { RequestFailure, send, type FieldError } from "./http.ts";

/** The sign-in card: email (0), password (1), one-time code (2). */
export interface SignInState {
  step: 0 | 1 | 2;
  email: string;
  password: string;
  otp: string;
  remember: boolean;
  mfaRequired: boolean;
  busy: boolean;
  errors: FieldError[];
}
const INITIAL: SignInState = {
  step: 0,
  email: "",
  password: "",
  otp: "",
  remember: false,
  mfaRequired: false,
  busy: false,
  errors: [],
};

export const $signIn = map<SignInState>({ ...INITIAL });

/** What happens once signed in; the spec reloads the page (now signed in). */
export const afterSignIn = { go: () => location.reload() };

/**
 * Federated sign-in: off to the identity provider, and back to this very page afterwards,
 * which then carries on as after any sign-in (the gateway follows its `next`, a record card
 * opens the record).
 */
export async function toIdentityProvider(configName: string) {
  const { accountBase } = await loadConfig();
  const here = encodeURIComponent(location.pathname + location.search);
  location.assign(`${accountBase}/auth/saml/login/${encodeURIComponent(configName)}?next=${here}`);
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

async function run(task: () => Promise<void>) {
  $signIn.setKey("busy", true);
  $signIn.setKey("errors", []);
  try {
    await task();
  } catch (e) {
    $signIn.setKey("errors", e instanceof RequestFailure ? e.errors : [{ field: null, message: String(e) }]);
  } finally {
    $signIn.setKey("busy", false);
  }
}

/** Step 0: federated addresses go to their identity provider; others on to the password. */
export function submitEmail(typed: string) {
  const email = typed.trim();
  if (email === "") {
    $signIn.setKey("errors", [{ field: "emailAddress", message: INVALID_EMAIL }]);
    return Promise.resolve();
  }
  return run(async () => {
    const data = await send<{ samlConfigName: string | null; mfaRequired: boolean }>(
      "account",
      "/gateway/check-email",
      {
        form: { emailAddress: email },
      },
    );
    if (data.samlConfigName) return toIdentityProvider(data.samlConfigName);
    $signIn.set({ ...$signIn.get(), email, mfaRequired: data.mfaRequired, step: 1 });
  });
}

/** Step 1: the password; then the code when one is needed, else signed in. */
export function submitPassword(password: string) {
  const { email } = $signIn.get();
  return run(async () => {
    const data = await send<{ mfaRequired: boolean }>("account", "/gateway/submit", {
      form: { emailAddress: email, password },
    });
    if (data.mfaRequired) $signIn.set({ ...$signIn.get(), mfaRequired: true, step: 2 });
    else afterSignIn.go();
  });
}

/** Step 2: the one-time code, optionally remembering this browser for 30 days. */
export function submitOtp(otp: string, remember: boolean) {
  return run(async () => {
    await send("account", "/gateway/verify-otp", {
      form: { otp: otp.trim(), remember: remember ? "1" : "0" },
    });
    afterSignIn.go();
  });
}
