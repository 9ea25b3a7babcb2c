import { and, eq } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { Db } from "../db/client.ts";
import { subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { sessionUserId } from "../services/sessions.ts";
import { isRoleId, type RoleId } from "../../src/domain/roles.ts";
import { roleMay, type Action } from "../../src/domain/permissions.ts";
import { ApiError } from "../core/errors.ts";

export interface Auth {
  user: typeof users.$inferSelect;
  subscription: typeof subscriptions.$inferSelect;
  roleId: RoleId;
}

declare module "hono" {
  interface ContextVariableMap {
    auth: Auth | null;
  }
}

export const NOT_SIGNED_IN = "You are not signed in.";
export const FORBIDDEN = "You do not have permission to do that.";
export const TERMS_REQUIRED = "Accept the Terms of Service to continue.";

/** Loads the caller's user, active subscription and role in it, or null. */
export async function loadAuth(c: Context, db: Db, now: Date): Promise<Auth | null> {
  const userId = await sessionUserId(c, db, now);
  if (userId === null) return null;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user?.activeSubscriptionId) return null;
  const [row] = await db
    .select({ subscription: subscriptions, roleId: userAssignments.roleId })
    .from(userAssignments)
    .innerJoin(subscriptions, eq(userAssignments.subscriptionId, subscriptions.id))
    .where(
      and(eq(userAssignments.userId, userId), eq(userAssignments.subscriptionId, user.activeSubscriptionId)),
    );
  if (!row || !isRoleId(row.roleId)) return null;
  return { user, subscription: row.subscription, roleId: row.roleId };
}

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
    const auth = await loadAuth(c, db, now());
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
 * "May this session do X on this resource?": the role must allow the action and the
 * resource must belong to the active subscription. Refuses with 403 or 404.
 */
export function authorize(auth: Auth, action: Action, resource?: { subscriptionId: number | null }) {
  if (resource && resource.subscriptionId !== auth.subscription.id) throw new ApiError(404, "Not found.");
  if (!roleMay(auth.roleId, action)) throw new ApiError(403, FORBIDDEN);
}
