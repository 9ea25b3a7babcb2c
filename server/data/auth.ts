import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { subscriptions, userAssignments } from "../db/schema/index.ts";
import { isRoleId, type RoleId } from "../../src/domain/roles.ts";
import { sessionUserId } from "./sessions.ts";
import { findUser, type User } from "./users.ts";

/** Who calls: the signed-in user, the active subscription and the role in it. */
export interface Auth {
  user: User;
  subscription: typeof subscriptions.$inferSelect;
  roleId: RoleId;
}

/** The caller behind a session token (the cookie's value), or null when it signs no one in. */
export async function authOfSession(db: Db, token: string | null, now: Date): Promise<Auth | null> {
  const userId = token ? await sessionUserId(db, token, now) : null;
  if (userId === null) return null;
  const user = await findUser(db, userId);
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
