import { atom } from "nanostores";
import { checkValidationToken, validateAccount } from "../api/accounts.ts";
import type { FieldError } from "../api/errors.ts";
import { PATHS } from "../domain/paths.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { go, queryParam } from "./navigate.ts";

/** The registration link: checked first, then name and password for the address it validates. */
export type ValidationState =
  | { step: "checking" }
  | { step: "broken"; errors: FieldError[] }
  | { step: "form"; token: string; email: string };

export const $validation = atom<ValidationState>({ step: "checking" });
/** Busy and errors of the account form. */
export const $validationForm = formStore();

/** Shows the form only for a link (this page's ?token=) that is still good. */
export async function checkValidationLink() {
  const token = queryParam("token") ?? "";
  $validation.set({ step: "checking" });
  try {
    const { email } = await call(checkValidationToken, { token });
    $validation.set({ step: "form", token, email });
  } catch (e) {
    $validation.set({ step: "broken", errors: errorsOf(e) });
  }
}

/** Creates the account (signed in at once) and opens the welcome page. */
export async function createAccount(fields: { firstName: string; lastName: string; password: string }) {
  const state = $validation.get();
  if (state.step !== "form") return;
  await formTask($validationForm, async () => {
    await call(validateAccount, { token: state.token, ...fields });
    go(PATHS.welcome);
  });
}
