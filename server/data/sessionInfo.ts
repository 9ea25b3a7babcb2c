import { eq, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { subscriptions, userAssignments } from "../db/schema/index.ts";
import type { Auth } from "./auth.ts";
import { ROLE_INFO, isRoleId, type RoleId } from "../../src/domain/roles.ts";

const role = (id: RoleId) => ({ id, name: ROLE_INFO[id].name, displayName: ROLE_INFO[id].displayName });

/**
 * A person's assignments with their subscriptions' names, as one prepared statement per
 * database: every session check that is not reused asks it, right after the session lookup.
 */
function assignmentsQuery(db: Db) {
  return db
    .select({
      id: userAssignments.id,
      subscriptionId: userAssignments.subscriptionId,
      roleId: userAssignments.roleId,
      name: subscriptions.name,
    })
    .from(userAssignments)
    .innerJoin(subscriptions, eq(subscriptions.id, userAssignments.subscriptionId))
    .where(eq(userAssignments.userId, sql.placeholder("userId")))
    .orderBy(userAssignments.id)
    .prepare("assignments_of_user");
}
const prepared = new WeakMap<Db, ReturnType<typeof assignmentsQuery>>();

/** The spec's session information: the user, their assignments and the active subscription. */
export async function sessionInformation(db: Db, auth: Auth) {
  const { user, subscription: sub } = auth;
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = assignmentsQuery(db)));
  const assignments = await query.execute({ userId: user.id });
  return {
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    timezone: user.timezone,
    temperatureScale: user.temperatureScale,
    activeSubscriptionId: sub.id,
    userAssignmentList: assignments
      .filter((a) => isRoleId(a.roleId))
      .map((a) => ({
        id: a.id,
        subscriptionId: a.subscriptionId,
        subscriptionName: a.name,
        role: role(a.roleId as RoleId),
      })),
    activeSubscription: {
      id: sub.id,
      name: sub.name,
      tier: { name: sub.tierName, limits: sub.limits, features: sub.features },
      limitMap: sub.limits,
      role: role(auth.roleId),
      supportsRoles: sub.supportsRoles,
      advancedRoles: sub.advancedRoles,
      samlEnabled: sub.samlConfigName !== null,
    },
  };
}

/** Counts of the active subscription against its limits. Kinds the portal does not store yet count 0. */
export async function subscriptionStats(db: Db, auth: Auth) {
  const id = auth.subscription.id;
  const [c] = await rows<{ users: number; devices: number; reports: number; alerts: number }>(
    db,
    sql`select
      (select count(*)::int from user_assignments where subscription_id = ${id}) as users,
      (select count(*)::int from devices where subscription_id = ${id}) as devices,
      (select count(*)::int from reports where subscription_id = ${id}) as reports,
      (select count(*)::int from alert_rules where subscription_id = ${id}) as alerts`,
  );
  const limits = auth.subscription.limits;
  return {
    userCount: c?.users ?? 0,
    deviceCount: c?.devices ?? 0,
    alertCount: c?.alerts ?? 0,
    reportCount: c?.reports ?? 0,
    connectorCount: 0,
    computedChannelCount: 0,
    legacyDeviceCount: 0,
    transferredDeviceCount: 0,
    archivedDeviceCount: 0,
    userLimit: limits["users"],
    deviceLimit: limits["devices"],
    alertLimit: limits["alerts"],
    reportLimit: limits["reports"],
    connectorLimit: limits["connectors"],
    computedChannelLimit: limits["computedChannels"],
    legacyDeviceLimit: limits["legacyDevices"],
    transferredDeviceLimit: limits["transferredDevices"],
    archivedDeviceLimit: limits["archivedDevices"],
    dataAgeLimitUnit: limits["dataAgeLimitUnit"],
    dataAgeLimitValue: limits["dataAgeLimitValue"],
  };
}
