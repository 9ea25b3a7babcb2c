import { map } from "nanostores";
import { searchOrdersAndQuotes } from "../api/lookup.ts";
import { lookupPath, missingLookupFields, RECORD_NOT_FOUND } from "../domain/lookup.ts";
import { type FormState, formTask, showErrors } from "./formTask.ts";
import { call, RequestFailure } from "./http.ts";
import { go } from "./navigate.ts";

/** The lookup form of /p/order-quote/search: busy while it asks, its one message after. */
export const $lookup = map<FormState>({ busy: false, errors: [] });

const NOT_FOUND = [{ field: null, message: RECORD_NOT_FOUND }];

/** The HTTP status of a failure the server answered (RequestFailure.status), if known. */
const statusOf = (e: unknown) => (e as { status?: unknown } | null)?.status;

/**
 * Finds a quote or an order by its number and contact name and opens it: an order's page
 * when the answer names an order, the quote's otherwise. Every failure reads 'Record not
 * found.' (spec section 8) except a rate limit, whose own message says how long to wait.
 * An empty field is asked for by name, without spending one of the visitor's limited tries.
 */
export async function findRecord(id: string, contact: string) {
  const missing = missingLookupFields(id, contact);
  if (missing.length) return showErrors($lookup, missing);
  await formTask($lookup, async () => {
    const found = await call(searchOrdersAndQuotes, { id, contact }).catch((e: unknown) => {
      throw statusOf(e) === 429 ? e : new RequestFailure(NOT_FOUND);
    });
    go(lookupPath(found.resourceUri));
  });
}
