import { map, type MapStore } from "nanostores";
import type { FieldError } from "../api/errors.ts";
import { errorsOf } from "./http.ts";

/** What every form shows while it talks to the server. */
export interface FormState {
  busy: boolean;
  errors: FieldError[];
}

/** A form's own busy/errors store, for forms whose other state lives elsewhere. */
export const formStore = (): MapStore<FormState> => map<FormState>({ busy: false, errors: [] });

/** Messages that come from the browser's own checks, shown like the server's. */
export function showErrors($form: MapStore<FormState>, errors: FieldError[]) {
  $form.setKey("errors", errors);
}

/** An edit answers the errors of the fields it changed; the others stay until the next submit. */
export function clearFieldErrors($form: MapStore<FormState>, fields: readonly string[]) {
  const errors = $form.get().errors;
  const left = errors.filter((e) => e.field === null || !fields.includes(e.field));
  if (left.length !== errors.length) $form.setKey("errors", left);
}

/**
 * A form's request: busy while it runs (a second press meanwhile does nothing), errors
 * cleared first and set from any failure, not busy afterwards. True when the task succeeded.
 */
export async function formTask<S extends FormState>(
  $store: MapStore<S>,
  task: () => Promise<unknown>,
): Promise<boolean> {
  // Typed as the plain form state: only `busy` and `errors` are touched here.
  const $form = $store as unknown as MapStore<FormState>;
  if ($form.get().busy) return false;
  $form.setKey("busy", true);
  $form.setKey("errors", []);
  try {
    await task();
    return true;
  } catch (e) {
    $form.setKey("errors", errorsOf(e));
    return false;
  } finally {
    $form.setKey("busy", false);
  }
}
