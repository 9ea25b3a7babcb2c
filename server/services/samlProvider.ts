import { randomBytes } from "node:crypto";
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from "@node-saml/node-saml";
import { isEmail } from "../../src/domain/auth.ts";
import { ROLE_INFO, type RoleId } from "../../src/domain/roles.ts";

/** How long a sign-in may take at the identity provider before its request id lapses. */
const REQUEST_TTL_MS = 10 * 60_000;
/** Clocks of two servers may differ a little; more is refused as outside the time window. */
const CLOCK_SKEW_MS = 60_000;

/** What the service provider needs of a federated configuration. */
export interface IdpConfig {
  name: string;
  entryPoint: string;
  idpCert: string;
  issuer: string;
}

/** Where the request ids live (data/saml.ts keeps them in the database). */
export interface RequestIdStore {
  save(id: string, expiresAt: Date): Promise<void>;
  expiryOf(id: string, now: Date): Promise<Date | null>;
  remove(id: string): Promise<boolean>;
}

/** node-saml's request-id cache over a store; node-saml reads the value as the time the request was made. */
function requestIdCache(store: RequestIdStore): CacheProvider {
  return {
    async saveAsync(id, value) {
      const createdAt = Date.now();
      await store.save(id, new Date(createdAt + REQUEST_TTL_MS));
      return { value, createdAt };
    },
    async getAsync(id) {
      const expiresAt = await store.expiryOf(id, new Date());
      return expiresAt ? new Date(expiresAt.getTime() - REQUEST_TTL_MS).toISOString() : null;
    },
    async removeAsync(id) {
      if (!id) return null;
      return (await store.remove(id)) ? id : null;
    },
  };
}

/** A fresh AuthnRequest id (XML ids may not start with a digit). */
export const newRequestId = () => `_${randomBytes(20).toString("hex")}`;

/**
 * The service-provider side of one federated configuration. `requestId` names the next
 * AuthnRequest, so the login route can tie it to the browser that asked.
 */
export function serviceProvider(
  config: IdpConfig,
  accountBase: string,
  requestIds: RequestIdStore,
  requestId?: string,
) {
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
    cacheProvider: requestIdCache(requestIds),
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

/** The asserted identity: an email (NameID or a mail attribute), names, an optional role. */
export interface SamlIdentity {
  email: string;
  firstName: string;
  lastName: string;
  role: RoleId | null;
  assertionId: string | null;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Reads the identity out of a verified profile; null without a usable email. */
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
 * Sorts node-saml's refusal into what the person is told (the detail goes to the log). An
 * out-of-date bearer confirmation reads "No valid subject confirmation", so it is "expired".
 */
export function refusalKind(error: unknown): "expired" | "unverified" {
  const message = error instanceof Error ? error.message : String(error);
  return /InResponseTo|expired|not yet valid|subject confirmation/i.test(message) ? "expired" : "unverified";
}
