import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { isRoleId, type RoleId } from "../../src/domain/roles.ts";
import { liveSessionParams, touchSession } from "./sessions.ts";
import type { User } from "./users.ts";

/** Who calls: the signed-in user, the active subscription and the role in it. */
export interface Auth {
  user: User;
  subscription: typeof subscriptions.$inferSelect;
  roleId: RoleId;
}

/** A session with its person, their active subscription and role there (a read of one or many). */
export function sessionsWithRoles(db: Db) {
  return db
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
    .innerJoin(subscriptions, eq(subscriptions.id, userAssignments.subscriptionId));
}

/**
 * The session's row, its person and their role in the active subscription, as one prepared
 * statement per database: every signed-in call asks it first, so its SQL is built (and on
 * PostgreSQL parsed and planned) once, not per request.
 */
function authQuery(db: Db) {
  return sessionsWithRoles(db)
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("idHash")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        gt(sessions.createdAt, sql.placeholder("oldest")),
      ),
    )
    .prepare("auth_of_session");
}
const prepared = new WeakMap<Db, ReturnType<typeof authQuery>>();

/** The caller behind a session token (the cookie's value), or null when it signs no one in. */
export async function authOfSession(db: Db, token: string | null, now: Date): Promise<Auth | null> {
  if (!token) return null;
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = authQuery(db)));
  const [row] = await query.execute(liveSessionParams(token, now));
  if (!row || !isRoleId(row.roleId)) return null;
  await touchSession(db, row.session, now);
  return { user: row.user, subscription: row.subscription, roleId: row.roleId };
}
