import { map } from "nanostores";
import { signUp } from "../api/accounts.ts";
import type { FieldError } from "../api/errors.ts";
import { checkEmail } from "../api/gateway.ts";
import { INVALID_EMAIL } from "../domain/auth.ts";
import { publicRecordLinks, type RecordKind } from "../domain/publicRecord.ts";
import { formTask } from "./formTask.ts";
import { call } from "./http.ts";
import { here, queryParam } from "./navigate.ts";
import { resetSignIn, toIdentityProvider } from "./signIn.ts";

/** The register card: register, sign in, mail sent, or already registered. */
export interface RegisterState {
  mode: "register" | "signin" | "sent" | "already";
  /** The record the card sits on, 'ord-{id}' / 'quo-{id}', sent with the sign-up; or "". */
  referrer: string;
  busy: boolean;
  errors: FieldError[];
}
export const $register = map<RegisterState>({ mode: "register", referrer: "", busy: false, errors: [] });

/**
 * Opens the card on a public order or quote page (or /user/register without a kind):
 * ref=login shows the sign-in face. A signed-in member of the record's subscription has been
 * sent to the signed-in page already, by the page's script (the record's answer says whether
 * the visitor is one); anyone else stays to register or sign in.
 */
export function openRegisterCard(kind?: RecordKind) {
  const referrer = kind ? (publicRecordLinks(kind, here().pathname)?.referrer ?? "") : "";
  $register.setKey("referrer", referrer);
  if (queryParam("ref") === "login") showMode("signin");
}

/** Switches the card between its register and sign-in faces. */
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
export async function register(typed: string, browserSaysValid: boolean) {
  const email = typed.trim();
  if (!browserSaysValid || email === "") {
    $register.setKey("errors", [{ field: "emailAddress", message: INVALID_EMAIL }]);
    return;
  }
  await formTask($register, async () => {
    const { referrer } = $register.get();
    const data = await call(signUp, { emailAddress: email, referrer });
    if (data.userExists === 0) return $register.setKey("mode", "sent");
    if (data.samlConfigName) return toIdentityProvider(data.samlConfigName);
    const check = await call(checkEmail, { emailAddress: email });
    resetSignIn({ email, mfaRequired: check.mfaRequired });
    $register.setKey("mode", "already");
  });
}
