import { eq, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { Role } from "../../src/domain/roles.ts";
import { hashPassword } from "./passwords.ts";

const FREE_LIMITS = {
  users: 3,
  devices: 5,
  alerts: 10,
  reports: 2,
  computedChannels: 0,
  connectors: 0,
  legacyDevices: 0,
  transferredDevices: 0,
  archivedDevices: 5,
  dataAgeLimitUnit: "MONTH",
  dataAgeLimitValue: 3,
};
const FREE_FEATURES = {
  csvExport: true,
  publicUrl: true,
  supportLevel: "community",
  advancedAlerting: false,
  cameraMonitoring: false,
  plugins: false,
  reportRanges: false,
};

/**
 * The subscription a new account joins. When it registered from an order or quote whose
 * contact email is its own, it joins that record's subscription (Billing role, or
 * Administrator when nobody is there yet); otherwise it gets a subscription of its own.
 */
async function subscriptionFor(db: Db, email: string, referrer: string | null) {
  const m = /^(ord|quo)-(\d+)$/i.exec(referrer ?? "");
  if (m) {
    const table = m[1]!.toLowerCase() === "ord" ? sql`orders` : sql`quotes`;
    const [rec] = await rows<{ subscription_id: number | null; contact_email: string | null }>(
      db,
      sql`select subscription_id, contact_email from ${table} where id = ${Number(m[2])}`,
    );
    if (rec?.subscription_id && rec.contact_email?.toLowerCase() === email) {
      const [n] = await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from user_assignments where subscription_id = ${rec.subscription_id}`,
      );
      return { id: rec.subscription_id, roleId: n?.n ? Role.BILLING : Role.ADMINISTRATOR };
    }
  }
  const [sub] = await db
    .insert(subscriptions)
    .values({ name: `${email} account`, tierName: "Free", limits: FREE_LIMITS, features: FREE_FEATURES })
    .returning();
  return { id: sub!.id, roleId: Role.ADMINISTRATOR };
}

/** Creates the validated account and its assignment; returns the new user id. */
export async function createAccount(
  db: Db,
  a: { email: string; firstName: string; lastName: string; password: string; referrer: string | null },
  now: Date,
): Promise<number> {
  const email = a.email.toLowerCase();
  const target = await subscriptionFor(db, email, a.referrer);
  const [user] = await db
    .insert(users)
    .values({
      email,
      firstName: a.firstName,
      lastName: a.lastName,
      passwordHash: await hashPassword(a.password),
      activeSubscriptionId: target.id,
      emailVerifiedAt: now,
    })
    .returning();
  await db
    .insert(userAssignments)
    .values({ userId: user!.id, subscriptionId: target.id, roleId: target.roleId });
  await db.update(users).set({ activeSubscriptionId: target.id }).where(eq(users.id, user!.id));
  return user!.id;
}
