import type { Context } from "hono";
import type { Endpoint, ResponseOf } from "../../src/api/endpoint.ts";

/**
 * The success envelope `{success: true, data}`. `data` must have the endpoint's response
 * type, so a handler whose answer drifts from the contract breaks the type check.
 */
export function reply<E extends Endpoint>(c: Context, _endpoint: E, data: ResponseOf<E>) {
  return c.json({ success: true, data: data as unknown });
}
