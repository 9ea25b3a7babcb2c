import { and, eq, gt, lt, sql } from "drizzle-orm";
import { randomToken } from "../core/crypto.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { samlConfigs, samlSeen, subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { Role, type RoleId } from "../../src/domain/roles.ts";

export type SamlConfigRow = typeof samlConfigs.$inferSelect;

/** An assertion id is remembered this long; older assertions fail the time window anyway. */
const ASSERTION_TTL_MS = 24 * 3_600_000;
const TICKET_TTL_MS = 2 * 60_000;

/** Who the identity provider vouches for. */
export interface FederatedIdentity {
  email: string;
  firstName: string;
  lastName: string;
  role: RoleId | null;
}

/** A verified sign-in waiting for the browser that started it to collect it. */
export interface SamlTicket {
  configName: string;
  requestId: string;
  next: string;
  identity: FederatedIdentity;
}

/**
 * The AuthnRequest ids node-saml remembers, kept in the database so every instance shares
 * them and a restart forgets nothing (services/samlProvider.ts turns this into its cache).
 */
export function samlRequestIds(db: Db) {
  const key = (id: string) => `request:${id}`;
  return {
    async save(id: string, expiresAt: Date) {
      await db
        .insert(samlSeen)
        .values({ id: key(id), kind: "request", expiresAt })
        .onConflictDoNothing();
    },
    async expiryOf(id: string, now: Date): Promise<Date | null> {
      const [row] = await db
        .select()
        .from(samlSeen)
        .where(and(eq(samlSeen.id, key(id)), gt(samlSeen.expiresAt, now)));
      return row?.expiresAt ?? null;
    },
    async remove(id: string): Promise<boolean> {
      const gone = await db
        .delete(samlSeen)
        .where(eq(samlSeen.id, key(id)))
        .returning();
      return gone.length > 0;
    },
  };
}
export type SamlRequestIds = ReturnType<typeof samlRequestIds>;

/** Leaves a verified sign-in for two minutes; returns the ticket's id. */
export async function issueTicket(db: Db, ticket: SamlTicket, now: Date): Promise<string> {
  const id = randomToken(24);
  await db.insert(samlSeen).values({
    id: `ticket:${id}`,
    kind: "ticket",
    expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
    data: { ...ticket },
  });
  return id;
}

/** Takes a ticket once; null when unknown, used or expired. */
export async function takeTicket(db: Db, id: string, now: Date): Promise<SamlTicket | null> {
  const [row] = await db
    .delete(samlSeen)
    .where(and(eq(samlSeen.id, `ticket:${id}`), gt(samlSeen.expiresAt, now)))
    .returning();
  return (row?.data as SamlTicket | undefined) ?? null;
}

/** Connects a subscription to its identity provider (operators: `npm run saml`). */
export async function saveSamlConfig(db: Db, row: SamlConfigRow) {
  await inTransaction(db, async (tx) => {
    await tx.insert(samlConfigs).values(row).onConflictDoUpdate({ target: samlConfigs.name, set: row });
    await tx
      .update(subscriptions)
      .set({ samlConfigName: row.name })
      .where(eq(subscriptions.id, row.subscriptionId));
  });
}

/** A federated configuration by its name. */
export async function findSamlConfig(db: Db, name: string): Promise<SamlConfigRow | null> {
  const [row] = await db.select().from(samlConfigs).where(eq(samlConfigs.name, name));
  return row ?? null;
}

/**
 * Records an assertion id once. A second use (replay, or two racing posts of one response)
 * finds the row already there and is refused.
 */
export async function claimAssertion(db: Db, id: string, now: Date): Promise<boolean> {
  await db.delete(samlSeen).where(lt(samlSeen.expiresAt, now));
  const rows = await db
    .insert(samlSeen)
    .values({
      id: `assertion:${id}`,
      kind: "assertion",
      expiresAt: new Date(now.getTime() + ASSERTION_TTL_MS),
    })
    .onConflictDoNothing()
    .returning();
  return rows.length === 1;
}

/**
 * The identity provider grants access: a person it vouches for belongs to the configuration's
 * subscription. A first sign-in creates the profile (Viewer unless a portalRole attribute names
 * a role); an asserted role updates the membership; the subscription becomes the active one.
 */
export async function provisionFederatedUser(
  db: Db,
  config: SamlConfigRow,
  who: FederatedIdentity,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const [existing] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${who.email.toLowerCase()}`);
    const user =
      existing ??
      (
        await tx
          .insert(users)
          .values({
            email: who.email.toLowerCase(),
            firstName: who.firstName,
            lastName: who.lastName,
            emailVerifiedAt: now,
          })
          .returning()
      )[0]!;
    await tx
      .insert(userAssignments)
      .values({ userId: user.id, subscriptionId: config.subscriptionId, roleId: who.role ?? Role.VIEWER })
      .onConflictDoUpdate({
        target: [userAssignments.userId, userAssignments.subscriptionId],
        set: who.role ? { roleId: who.role } : { roleId: sql`${userAssignments.roleId}` },
      });
    await tx.update(users).set({ activeSubscriptionId: config.subscriptionId }).where(eq(users.id, user.id));
    return user.id;
  });
}
