import { randomBytes } from "node:crypto";
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from "@node-saml/node-saml";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { samlConfigs, samlSeen, subscriptions, userAssignments, users } from "../db/schema/index.ts";
import { isEmail } from "../../src/domain/auth.ts";
import { Role, ROLE_INFO, type RoleId } from "../../src/domain/roles.ts";

export type SamlConfigRow = typeof samlConfigs.$inferSelect;

/** How long a sign-in may take at the identity provider before its request id lapses. */
const REQUEST_TTL_MS = 10 * 60_000;
/** Clocks of two servers may differ a little; more is refused as outside the time window. */
const CLOCK_SKEW_MS = 60_000;
/** An assertion id is remembered this long; older assertions fail the time window anyway. */
const ASSERTION_TTL_MS = 24 * 3_600_000;

/**
 * node-saml's request-id cache, kept in the database so every instance shares it and a
 * restart forgets nothing. node-saml reads the value as the time the request was made.
 */
function requestIdCache(db: Db): CacheProvider {
  const key = (id: string) => `request:${id}`;
  return {
    async saveAsync(id, value) {
      const createdAt = Date.now();
      await db
        .insert(samlSeen)
        .values({ id: key(id), kind: "request", expiresAt: new Date(createdAt + REQUEST_TTL_MS) })
        .onConflictDoNothing();
      return { value, createdAt };
    },
    async getAsync(id) {
      const [row] = await db
        .select()
        .from(samlSeen)
        .where(and(eq(samlSeen.id, key(id)), gt(samlSeen.expiresAt, new Date())));
      return row ? new Date(row.expiresAt.getTime() - REQUEST_TTL_MS).toISOString() : null;
    },
    async removeAsync(id) {
      if (!id) return null;
      const gone = await db
        .delete(samlSeen)
        .where(eq(samlSeen.id, key(id)))
        .returning();
      return gone.length ? id : null;
    },
  };
}

/** A fresh AuthnRequest id (XML ids may not start with a digit). */
export const newRequestId = () => `_${randomBytes(20).toString("hex")}`;

/**
 * The service-provider side of one federated configuration. `requestId` names the next
 * AuthnRequest, so the login route can tie it to the browser that asked.
 */
export function serviceProvider(db: Db, config: SamlConfigRow, accountBase: string, requestId?: string) {
  const base = `${accountBase}/auth/saml`;
  return new SAML({
    entryPoint: config.entryPoint,
    issuer: `${base}/metadata/${encodeURIComponent(config.name)}`,
    callbackUrl: `${base}/acs/${encodeURIComponent(config.name)}`,
    idpCert: config.idpCert,
    idpIssuer: config.issuer,
    // Identity providers differ on signing the envelope; the assertion must always be signed.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // node-saml checks neither InResponseTo nor replays unless told to (ARCHITECTURE.md).
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestIdCache(db),
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    signatureAlgorithm: "sha256",
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** The request a verified response answers (node-saml has checked it against the cache). */
export function inResponseToOf(profile: Profile): string | null {
  const xml = profile.getSamlResponseXml?.() ?? "";
  return /<(?:[\w-]+:)?Response\b[^>]*?\sInResponseTo="([^"]+)"/.exec(xml)?.[1] ?? null;
}

/** A verified sign-in waiting for the browser that started it to collect it. */
export interface SamlTicket {
  configName: string;
  requestId: string;
  next: string;
  identity: Omit<SamlIdentity, "assertionId">;
}
const TICKET_TTL_MS = 2 * 60_000;

export async function issueTicket(db: Db, ticket: SamlTicket, now: Date): Promise<string> {
  const id = randomBytes(24).toString("base64url");
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
  await db.transaction(async (tx) => {
    await tx.insert(samlConfigs).values(row).onConflictDoUpdate({ target: samlConfigs.name, set: row });
    await tx
      .update(subscriptions)
      .set({ samlConfigName: row.name })
      .where(eq(subscriptions.id, row.subscriptionId));
  });
}

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

/** The asserted identity: an email (NameID or a mail attribute), names, an optional role. */
export interface SamlIdentity {
  email: string;
  firstName: string;
  lastName: string;
  role: RoleId | null;
  assertionId: string | null;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function identityOf(profile: Profile): SamlIdentity | null {
  const email = [profile.email, profile.mail, profile["urn:oid:0.9.2342.19200300.100.1.3"], profile.nameID]
    .map(text)
    .find((v) => isEmail(v));
  if (!email) return null;
  const roleName = text(profile.portalRole).toUpperCase();
  const role = (Object.entries(ROLE_INFO).find(([, r]) => r.name === roleName)?.[0] ?? null) as string | null;
  const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined;
  return {
    email,
    firstName: text(profile.firstName ?? profile.givenName),
    lastName: text(profile.lastName ?? profile.sn),
    role: role ? (Number(role) as RoleId) : null,
    assertionId: assertion?.Assertion?.$?.ID ?? null,
  };
}

/**
 * The identity provider grants access: a person it vouches for belongs to the configuration's
 * subscription. A first sign-in creates the profile (Viewer unless a portalRole attribute names
 * a role); an asserted role updates the membership; the subscription becomes the active one.
 */
export async function provisionFederatedUser(
  db: Db,
  config: SamlConfigRow,
  who: SamlTicket["identity"],
  now: Date,
) {
  return db.transaction(async (tx) => {
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

/**
 * Sorts node-saml's refusal into what the person is told (the detail goes to the log). An
 * out-of-date bearer confirmation reads "No valid subject confirmation", so it is "expired".
 */
export function refusalKind(error: unknown): "expired" | "unverified" {
  const message = error instanceof Error ? error.message : String(error);
  return /InResponseTo|expired|not yet valid|subject confirmation/i.test(message) ? "expired" : "unverified";
}
