import type { MiddlewareHandler } from "hono";
import { ApiError } from "./errors.ts";

/**
 * PostgreSQL text and jsonb cannot hold U+0000: a query carrying one fails. Such input is
 * refused at the edge with a 400 instead of reaching the database as a 500.
 */
export const NUL_REFUSED = "The request contains a character that is not allowed.";

/** True when any string in the value (deeply) holds U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object")
    return Object.entries(value).some(([k, v]) => containsNul(k) || containsNul(v));
  return false;
}

/** Refuses an address whose path or query encodes U+0000. */
export const refuseNulInUrl: MiddlewareHandler = async (c, next) => {
  if (/%00/i.test(c.req.url)) throw new ApiError(400, NUL_REFUSED);
  await next();
};
