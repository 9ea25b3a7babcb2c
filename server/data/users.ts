import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { samlConfigs, subscriptions, userAssignments, users } from "../db/schema/index.ts";

export type User = typeof users.$inferSelect;

/** The user with this email (case-insensitive), if any. */
export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return user ?? null;
}

/** The user with this id, if any. */
export async function findUser(db: Db, id: number): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user ?? null;
}

/**
 * Replaces a password's stored hash with a stronger one of the same password, only if it is
 * still the hash that was checked: a reset in between keeps its new password.
 */
export async function strengthenPasswordHash(db: Db, userId: number, checked: string, stronger: string) {
  await db
    .update(users)
    .set({ passwordHash: stronger })
    .where(and(eq(users.id, userId), eq(users.passwordHash, checked)));
}

/** The federated configuration name of the user's active subscription, when it has one. */
export async function samlConfigOf(db: Db, user: User): Promise<string | null> {
  if (!user.activeSubscriptionId) return null;
  const [row] = await db
    .select({ name: samlConfigs.name })
    .from(subscriptions)
    .innerJoin(samlConfigs, eq(samlConfigs.name, subscriptions.samlConfigName))
    .where(eq(subscriptions.id, user.activeSubscriptionId));
  return row?.name ?? null;
}

/** Records the first acceptance of the terms; a second acceptance keeps the first time. */
export async function acceptTerms(db: Db, user: User, now: Date) {
  if (!user.termsAcceptedAt)
    await db.update(users).set({ termsAcceptedAt: now }).where(eq(users.id, user.id));
}

/** Saves the person's display settings and returns them as stored. */
export async function saveSettings(
  db: Db,
  userId: number,
  patch: { temperatureScale?: "C" | "F" | undefined; timezone?: string | undefined },
) {
  const [user] = await db.update(users).set(patch).where(eq(users.id, userId)).returning();
  return { temperatureScale: user!.temperatureScale, timezone: user!.timezone };
}

/** Makes a subscription the active one when the person belongs to it; false when not. */
export async function switchSubscription(db: Db, userId: number, subscriptionId: number): Promise<boolean> {
  const [assignment] = await db
    .select()
    .from(userAssignments)
    .where(and(eq(userAssignments.userId, userId), eq(userAssignments.subscriptionId, subscriptionId)));
  if (!assignment) return false;
  await db.update(users).set({ activeSubscriptionId: subscriptionId }).where(eq(users.id, userId));
  return true;
}
