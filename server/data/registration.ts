import { sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";
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
 * Whether a subscription signs its people in through an identity provider. Nobody joins such a
 * subscription except by the provider's assertion (server/routes/samlComplete.ts).
 */
async function federated(db: Db, subscriptionId: number): Promise<boolean> {
  const [row] = await rows<{ saml: boolean }>(
    db,
    sql`select exists (select 1 from subscriptions s join saml_configs c on c.name = s.saml_config_name
        where s.id = ${subscriptionId}) as saml`,
  );
  return row?.saml ?? false;
}

/**
 * The record a referrer names with its back-office contact: the address the company's own
 * systems set on the quote (an order keeps its quote's), never one typed into a form.
 */
async function referredContact(db: Db, referrer: string | null) {
  const record = parseReferrer(referrer);
  // A referrer stored before ids were bounded may name no possible record: it names none.
  if (!record || record.id > MAX_ID) return null;
  const table = record.kind === "order" ? sql`orders` : sql`quotes`;
  const [rec] = await rows<{ subscription_id: number | null; contact_email: string | null }>(
    db,
    sql`select subscription_id, contact_email from ${table} where id = ${record.id}`,
  );
  return rec?.subscription_id ? { subscriptionId: rec.subscription_id, email: rec.contact_email } : null;
}

/**
 * The subscription a new account joins, only on a proof the subscription itself issued:
 * an invitation (Grant Account Access, which took its place when sent) places it with the
 * invited role; registering from a quote or order whose back-office contact address is its
 * own places it as Billing (Administrator when nobody is there yet) while the plan has a user
 * place left. An address typed by a payer is a receipt address and proves nothing. A
 * federated subscription is never joined this way. Otherwise the account gets a
 * subscription of its own (docs/decisions.md, "Who may join a subscription").
 */
async function subscriptionFor(db: Db, email: string, referrer: string | null, now: Date) {
  const invited = await takeInvitation(db, referrer, email);
  if (invited && !(await federated(db, invited.id))) return invited;
  const contact = invited ? null : await referredContact(db, referrer);
  if (
    contact &&
    contact.email?.toLowerCase() === email &&
    !(await federated(db, contact.subscriptionId)) &&
    (await roomForPerson(db, contact.subscriptionId, email, now)).ok
  ) {
    const [n] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from user_assignments where subscription_id = ${contact.subscriptionId}`,
    );
    return { id: contact.subscriptionId, roleId: n?.n ? Role.BILLING : Role.ADMINISTRATOR };
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
  return inTransaction(db, async (tx) => {
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
