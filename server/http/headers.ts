import type { MiddlewareHandler } from "hono";

/** Nothing may load or frame from a JSON, form or redirect response. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Paths whose answers carry sessions, tokens or account data (an invited address, a reset
 * check, a sign-in): no browser or proxy cache may keep them.
 */
export const PRIVATE_PATHS = [
  "/api/*",
  "/gateway/*",
  "/user/*",
  "/auth/*",
  "/terms/*",
  "/subscription/*",
  "/shipments/*",
  "/dev/*",
  "/devices/data/*",
  "/order/public/*",
  "/quote/public/*",
];

/**
 * no-store, and the API's CSP unless the response brings its own (built pages hash their scripts).
 * Set on the answer's own headers, as secureHeaders does: c.header() after the answer exists
 * would copy the whole response, a fifth of a cached public read's cost.
 */
export const privateResponse: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set("Cache-Control", "no-store");
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", API_CSP);
};
