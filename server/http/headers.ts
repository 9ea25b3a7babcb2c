import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
    /** Set by privateResponse: the answer carries no-store and, unless it has its own, the API's CSP. */
    privateAnswer: boolean;
  }
}

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
 * What hono/secure-headers sent with `strictTransportSecurity: "max-age=31536000;
 * includeSubDomains"` and `crossOriginResourcePolicy: false` (the public pages' images and
 * the report picture are embedded elsewhere), in lower case: every answer, replacing any the
 * handler set.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cross-origin-opener-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

/** True for a path under one of PRIVATE_PATHS, as Hono matches "/api/*" (the bare "/api" too). */
export function isPrivatePath(path: string): boolean {
  for (const pattern of PRIVATE_PATHS) {
    const prefix = pattern.slice(0, -2);
    if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/"))
      return true;
  }
  return false;
}

/** no-store, and the API's CSP unless the answer brings its own (built pages hash their scripts). */
export const privateResponse: MiddlewareHandler = (c, next) => {
  c.set("privateAnswer", true);
  return next();
};

/**
 * @hono/node-server's answers (its global Response while it serves) keep their status, body
 * and headers in a field under a private symbol until someone reads the body, and write a
 * plain headers object straight out. Found by its description (looked for until found, so a
 * first answer made outside the server does not turn it off); absent (app.request in tests,
 * another version of the server) the headers are set the standard way.
 */
type Parts = [status: number, body: unknown, headers: HeadersInit | undefined];
let partsKey: symbol | undefined;
function partsOf(res: Response): Parts | undefined {
  partsKey ??= Object.getOwnPropertySymbols(res).find((s) => s.description === "cache");
  const parts = partsKey ? (res as unknown as Record<symbol, unknown>)[partsKey] : undefined;
  return Array.isArray(parts) && parts.length === 3 ? (parts as Parts) : undefined;
}

/**
 * The answer's own headers as one object with lower-case names, as @hono/node-server would
 * write them (a list of pairs read as a Headers object reads it). Two Set-Cookie values would
 * become one: such an answer keeps the standard way (the caller checks for the name).
 */
function plainHeaders(body: unknown, init: HeadersInit | undefined): Record<string, string> {
  const own = Array.isArray(init)
    ? new Headers(init)
    : (init as Headers | Record<string, string> | undefined);
  const headers: Record<string, string> = {};
  if (own instanceof Headers) for (const [k, v] of own) headers[k] = v;
  else if (own) for (const k in own) headers[k.toLowerCase()] = own[k]!;
  // The server's own default for a body without a type.
  if (body !== null) headers["content-type"] ??= "text/plain; charset=UTF-8";
  delete headers["x-powered-by"];
  return headers;
}

/** The headers this answer adds to the handler's: they win over its own, as secureHeaders' did. */
function added(c: Context, id: string, hasCsp: boolean): Record<string, string> {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, "x-request-id": id };
  if (!c.get("privateAnswer")) return headers;
  headers["cache-control"] = "no-store";
  if (!hasCsp) headers["content-security-policy"] = API_CSP;
  return headers;
}

/**
 * Outermost: gives every request an id (in logs and X-Request-Id) and every answer the
 * security headers, plus no-store and the API's CSP on private paths. Served by
 * @hono/node-server, an answer without cookies is rebuilt once with one plain headers object:
 * setting a dozen headers on a fetch Headers object, which the server then copies out sorted,
 * was a tenth of a cached read's cost. Answers setting cookies (a Headers object joins two
 * Set-Cookie values into one) and any other Response get the headers set on them.
 */
export const answerHeaders: MiddlewareHandler = async (c, next) => {
  const id = randomUUID();
  c.set("requestId", id);
  await next();
  const res = c.res;
  const parts = partsOf(res);
  const headers = parts ? plainHeaders(parts[1], parts[2]) : null;
  if (parts && headers && !("set-cookie" in headers)) {
    Object.assign(headers, added(c, id, "content-security-policy" in headers));
    // Assigning undefined first: Hono would otherwise copy the old answer's headers onto the new one.
    c.res = undefined as unknown as Response;
    c.res = new Response(parts[1] as BodyInit | null, { status: parts[0], headers });
    return;
  }
  const set = res.headers;
  for (const [k, v] of Object.entries(added(c, id, set.has("content-security-policy")))) set.set(k, v);
  set.delete("x-powered-by");
};
