import type { Context, MiddlewareHandler } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { authOfSession, type Auth } from "../data/auth.ts";
import type { Db } from "../db/client.ts";
import { roleMay, type Action } from "../../src/domain/permissions.ts";
import { sessionToken } from "./cookies.ts";

declare module "hono" {
  interface ContextVariableMap {
    auth: Auth | null;
  }
}

export const NOT_SIGNED_IN = "You are not signed in.";
export const FORBIDDEN = "You do not have permission to do that.";
export const TERMS_REQUIRED = "Accept the Terms of Service to continue.";

/**
 * Middleware: every signed-in route needs a session (401 otherwise) and, unless the route
 * is one a person needs to reach and accept the terms (`beforeTerms`), accepted terms (403
 * otherwise). The browser sends such a person to /terms/acknowledge; this is the server's
 * half, so no call of the API skips the terms.
 */
export function requireAuth(
  db: Db,
  now: () => Date,
  opts: { beforeTerms?: boolean } = {},
): MiddlewareHandler {
  return async (c, next) => {
    const auth = await authOfSession(db, sessionToken(c), now());
    if (!auth) throw new ApiError(401, NOT_SIGNED_IN);
    if (!opts.beforeTerms && auth.user.termsAcceptedAt === null) throw new ApiError(403, TERMS_REQUIRED);
    c.set("auth", auth);
    await next();
  };
}

/** The caller, after requireAuth. */
export function authOf(c: Context): Auth {
  const auth = c.get("auth");
  if (!auth) throw new ApiError(401, NOT_SIGNED_IN);
  return auth;
}

/**
 * "Is this resource in the caller's active subscription?": another subscription's is a 404,
 * like a missing one. A route's role check is its access table entry (guard in access.ts),
 * written there once; a handler asks only this of the rows it read.
 */
export function inSubscription(auth: Auth, resource: { subscriptionId: number | null }) {
  if (resource.subscriptionId !== auth.subscription.id) throw new ApiError(404, NOT_FOUND);
}

/**
 * "May this session do X on this resource?" (for what no route guards: the live socket's
 * subscribe messages, and the guard itself): the role must allow the action and the
 * resource must belong to the active subscription. Refuses with 403 or 404.
 */
export function authorize(auth: Auth, action: Action, resource?: { subscriptionId: number | null }) {
  if (resource && resource.subscriptionId !== auth.subscription.id) throw new ApiError(404, NOT_FOUND);
  if (!roleMay(auth.roleId, action)) throw new ApiError(403, FORBIDDEN);
}
