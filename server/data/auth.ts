import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { isRoleId, type RoleId } from "../../src/domain/roles.ts";
import { liveSession, touchSession } from "./sessions.ts";
import type { User } from "./users.ts";

/** Who calls: the signed-in user, the active subscription and the role in it. */
export interface Auth {
  user: User;
  subscription: typeof subscriptions.$inferSelect;
  roleId: RoleId;
}

/**
 * The caller behind a session token (the cookie's value), or null when it signs no one in.
 * Every signed-in call asks this first: one query finds the session, its person and their
 * role in the active subscription.
 */
export async function authOfSession(db: Db, token: string | null, now: Date): Promise<Auth | null> {
  if (!token) return null;
  const [row] = await db
    .select({ session: sessions, user: users, subscription: subscriptions, roleId: userAssignments.roleId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(
      userAssignments,
      and(
        eq(userAssignments.userId, users.id),
        eq(userAssignments.subscriptionId, users.activeSubscriptionId),
      ),
    )
    .innerJoin(subscriptions, eq(subscriptions.id, userAssignments.subscriptionId))
    .where(liveSession(token, now));
  if (!row || !isRoleId(row.roleId)) return null;
  await touchSession(db, row.session, now);
  return { user: row.user, subscription: row.subscription, roleId: row.roleId };
}
