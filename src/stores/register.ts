import { map } from "nanostores";
import { INVALID_EMAIL } from "../domain/auth.ts";
import { RequestFailure, send, type FieldError } from "./http.ts";
import { resetSignIn, toIdentityProvider } from "./signIn.ts";

/** The public order/quote card: register, sign in, mail sent, or already registered. */
export interface RegisterState {
  mode: "register" | "signin" | "sent" | "already";
  busy: boolean;
  errors: FieldError[];
}
export const $register = map<RegisterState>({ mode: "register", busy: false, errors: [] });

/** Switches the card between its register and sign-in faces (ref=login forces sign-in). */
export function showMode(mode: "register" | "signin") {
  $register.set({ ...$register.get(), mode, errors: [] });
  if (mode === "signin") resetSignIn();
}

/** Typing clears the message shown. */
export function clearRegisterErrors() {
  if ($register.get().errors.length) $register.setKey("errors", []);
}

/**
 * Register: the browser's own email check first, then sign-up. A new address gets the mail;
 * a known one goes to its identity provider or to the password step of the sign-in card.
 */
export async function register(referrer: string, typed: string, browserSaysValid: boolean) {
  const email = typed.trim();
  if (!browserSaysValid || email === "") {
    $register.setKey("errors", [{ field: "emailAddress", message: INVALID_EMAIL }]);
    return;
  }
  $register.set({ ...$register.get(), busy: true, errors: [] });
  try {
    const data = await send<{ userExists: 0 | 1; samlConfigName?: string }>("account", "/user/new/sign-up", {
      form: { emailAddress: email, referrer },
    });
    if (data.userExists === 0) return $register.set({ ...$register.get(), mode: "sent", busy: false });
    if (data.samlConfigName) return await toIdentityProvider(data.samlConfigName);
    const check = await send<{ mfaRequired: boolean }>("account", "/gateway/check-email", {
      form: { emailAddress: email },
    });
    resetSignIn({ email, mfaRequired: check.mfaRequired });
    $register.set({ ...$register.get(), mode: "already", busy: false });
  } catch (e) {
    const errors = e instanceof RequestFailure ? e.errors : [{ field: null, message: String(e) }];
    $register.set({ ...$register.get(), busy: false, errors });
  }
}
