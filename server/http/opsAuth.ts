import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../core/errors.ts";
import { opsTokenOf } from "../data/opsTokens.ts";
import type { Db } from "../db/client.ts";

declare module "hono" {
  interface ContextVariableMap {
    opsToken: { id: number; name: string };
  }
}

export const OPS_TOKEN_MISSING = "This call needs an operations token: Authorization: Bearer ops_…";
export const OPS_TOKEN_REFUSED = "The operations token is unknown or revoked.";

/**
 * Middleware of every ops route: the request must carry `Authorization: Bearer ops_…` naming
 * a live token (401 otherwise). A session cookie counts for nothing here, and the token
 * counts for nothing on customer routes (they read only the cookie).
 */
export function requireOpsToken(db: Db, now: () => Date): MiddlewareHandler {
  return async (c, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
    if (!match) throw new ApiError(401, OPS_TOKEN_MISSING);
    const token = await opsTokenOf(db, match[1]!, now());
    if (!token) throw new ApiError(401, OPS_TOKEN_REFUSED);
    c.set("opsToken", token);
    await next();
  };
}

/** The token of the request, after requireOpsToken. */
export function opsTokenOfRequest(c: Context) {
  return c.get("opsToken");
}

export const IDEMPOTENCY_KEY_RULE =
  "Send an Idempotency-Key header: 8 to 200 letters, digits, '-', '_', '.' or ':', new for each write.";

/** The client-chosen key of an ops write (400 on the header when missing or malformed). */
export function idempotencyKeyOf(c: Context): string {
  const key = c.req.header("idempotency-key") ?? "";
  if (!/^[A-Za-z0-9_.:-]{8,200}$/.test(key))
    throw new ApiError(400, [{ field: "Idempotency-Key", message: IDEMPOTENCY_KEY_RULE }]);
  return key;
}
