import { atom } from "nanostores";
import { acceptTerms as acceptCall } from "../api/session.ts";
import { formStore, formTask } from "./formTask.ts";
import { call } from "./http.ts";
import { replaceWith, go } from "./navigate.ts";
import { nextPath, requireSignedIn } from "./session.ts";

/** /terms/acknowledge shows its button once the session is known to need it. */
export const $termsReady = atom(false);
/** Busy and errors of the accept button. */
export const $termsForm = formStore();

/** Visitors sign in first; a session that accepted the terms already goes straight on. */
export async function openTermsPage() {
  const session = await requireSignedIn();
  if (session?.termsAccepted) replaceWith(nextPath());
  else if (session) $termsReady.set(true);
}

/** Records the acceptance and continues to where the person was going. */
export const acceptTerms = () =>
  formTask($termsForm, async () => {
    await call(acceptCall);
    go(nextPath());
  });
