import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { ApiError } from "../core/errors.ts";
import { roomForPerson, takeInvitation } from "./grantAccess.ts";
import { MAX_ID } from "../../src/api/fields.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";
import { parseReferrer } from "../../src/domain/publicRecord.ts";
import { Role } from "../../src/domain/roles.ts";

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
 * Administrator when nobody is there yet) while that subscription's plan has a user place
 * left; an invitation (Grant Account Access, which took its place when sent) places it in
 * the inviting subscription with the invited role; otherwise it gets a subscription of its own.
 */
async function subscriptionFor(db: Db, email: string, referrer: string | null, now: Date) {
  const invited = await takeInvitation(db, referrer, email);
  if (invited) return invited;
  const record = parseReferrer(referrer);
  // A referrer stored before ids were bounded may name no possible record: it names none.
  if (record && record.id <= MAX_ID) {
    const table = record.kind === "order" ? sql`orders` : sql`quotes`;
    const [rec] = await rows<{ subscription_id: number | null; contact_email: string | null }>(
      db,
      sql`select subscription_id, contact_email from ${table} where id = ${record.id}`,
    );
    if (
      rec?.subscription_id &&
      rec.contact_email?.toLowerCase() === email &&
      (await roomForPerson(db, rec.subscription_id, email, now)).ok
    ) {
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

/**
 * Creates the validated account, its subscription (when new), its assignment and active
 * subscription in one transaction; returns the new user id. When another link for the same
 * address wins a race, the unique address index turns this insert into nothing: everything
 * rolls back (no empty subscription stays behind) and the link is refused as invalid. The
 * password arrives hashed: hashing takes ~100 ms and must not hold the transaction's locks.
 */
export async function createAccount(
  db: Db,
  a: { email: string; firstName: string; lastName: string; passwordHash: string; referrer: string | null },
  now: Date,
): Promise<number> {
  const email = a.email.toLowerCase();
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const target = await subscriptionFor(tx, email, a.referrer, now);
    const [user] = await tx
      .insert(users)
      .values({
        email,
        firstName: a.firstName,
        lastName: a.lastName,
        passwordHash: a.passwordHash,
        activeSubscriptionId: target.id,
        emailVerifiedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) throw new ApiError(400, [{ field: "token", message: LINK_INVALID }]);
    await tx
      .insert(userAssignments)
      .values({ userId: user.id, subscriptionId: target.id, roleId: target.roleId });
    return user.id;
  });
}
