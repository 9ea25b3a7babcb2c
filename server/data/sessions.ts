import { and, desc, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import { randomToken, sha256 } from "../core/crypto.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { loginChallenges, rememberedDevices, sessions, users } from "../db/schema/index.ts";
import { announceSessionsEnded } from "./liveNotify.ts";

/** Sliding: a session unused for 7 days ends... */
const SESSION_DAYS = 7;
/** ...and every session ends 30 days after its sign-in, however much it is used. */
const SESSION_MAX_DAYS = 30;
/** Live sessions per person; a new sign-in beyond this ends the oldest. */
export const MAX_SESSIONS = 10;
const DAY = 86_400_000;
/** How long the browser keeps the session cookie (the server's expiry decides earlier). */
export const SESSION_SECONDS = SESSION_DAYS * 86_400;

/** The sliding expiry from `now`, capped by the absolute lifetime from `createdAt`. */
const expiryAt = (createdAt: Date, now: Date) =>
  new Date(Math.min(now.getTime() + SESSION_DAYS * DAY, createdAt.getTime() + SESSION_MAX_DAYS * DAY));

/**
 * True while the person's credentials are still the version a sign-in read with the password
 * (a password reset raises it), keeping a reset that is under way from committing until the
 * caller's transaction does: the reset then ends what the caller made, or the caller sees the
 * new version and makes nothing. Without a version (sign-ins not made with a password), true.
 */
export async function credentialsStill(tx: Db, userId: number, version: number | undefined) {
  if (version === undefined) return true;
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.credentialVersion, version)))
    .for("share");
  return row !== undefined;
}

/**
 * Issues a random token and lets `store` write its hash, in one transaction, only while the
 * person's credentials are the version the sign-in read (credentialsStill): the token, or
 * null when a password reset came between. Sessions, half-done sign-ins and remembered
 * browsers are all made this way.
 */
export async function tokenWhileCredentialsHold(
  db: Db,
  person: { userId: number; credentialVersion?: number | undefined },
  store: (tx: Db, tokenHash: string) => Promise<unknown>,
): Promise<string | null> {
  const token = randomToken();
  return inTransaction(db, async (tx) => {
    if (!(await credentialsStill(tx, person.userId, person.credentialVersion))) return null;
    await store(tx, sha256(token));
    return token;
  });
}

/**
 * Starts a session, replacing the one the browser held (`previous`: the id changes at every
 * sign-in), and ends the person's oldest sessions beyond MAX_SESSIONS, in one transaction.
 * Returns the new id, or null when a password reset came after the sign-in read
 * `credentialVersion`: the password it was checked against is no longer the person's.
 */
export async function startSession(
  db: Db,
  s: { userId: number; previous: string | null; browser: string; credentialVersion?: number | undefined },
  now: Date,
): Promise<string | null> {
  return tokenWhileCredentialsHold(db, s, async (tx, idHash) => {
    if (s.previous) await tx.delete(sessions).where(eq(sessions.idHash, sha256(s.previous)));
    await tx.insert(sessions).values({
      idHash,
      userId: s.userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: expiryAt(now, now),
      browser: s.browser,
    });
    const beyond = tx
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(eq(sessions.userId, s.userId))
      .orderBy(desc(sessions.seq))
      .offset(MAX_SESSIONS);
    await tx.delete(sessions).where(inArray(sessions.idHash, beyond));
  });
}

/**
 * What a live session row meets, as parameters: this token's hash, not idle past its expiry,
 * and made within the absolute lifetime (sessions made before that lifetime existed carry no
 * cap in expiresAt).
 */
export function liveSessionParams(token: string, now: Date) {
  return { idHash: sha256(token), now, oldest: new Date(now.getTime() - SESSION_MAX_DAYS * DAY) };
}

/**
 * Slides a live session's expiry forward, at most once an hour (a write per request would
 * cost more than the read) and never beyond the absolute lifetime.
 */
export async function touchSession(db: Db, row: typeof sessions.$inferSelect, now: Date) {
  if (now.getTime() - row.lastSeenAt.getTime() <= 3_600_000) return;
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt: expiryAt(row.createdAt, now) })
    .where(eq(sessions.idHash, row.idHash));
}

/** The person's live sessions, newest first, marking the one `current` (a token) names. */
export async function listSessions(db: Db, userId: number, current: string | null, now: Date) {
  const mine = current ? sha256(current) : null;
  const list = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.seq));
  return list.map((s) => ({
    browser: s.browser,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    current: s.idHash === mine,
  }));
}

/** Ends every session of the person but the one `keep` (a token) names; returns how many ended. */
export async function endOtherSessions(db: Db, userId: number, keep: string | null): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keep ? sha256(keep) : "")))
    .returning({ idHash: sessions.idHash });
  if (ended.length) await announceSessionsEnded(db, userId);
  return ended.length;
}

/** Ends one session (sign-out); its live sockets close at once, on every instance. */
export async function endSession(db: Db, token: string): Promise<number | null> {
  const [ended] = await db
    .delete(sessions)
    .where(eq(sessions.idHash, sha256(token)))
    .returning({ userId: sessions.userId });
  if (ended) await announceSessionsEnded(db, ended.userId);
  return ended?.userId ?? null;
}

/**
 * After a new password: every session, every half-done sign-in (password given, code owed)
 * and every remembered browser of the person ends, so nothing granted by the old password
 * or by an old "remember this device" outlives it.
 */
export async function endEverySignIn(db: Db, userId: number, now: Date) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await announceSessionsEnded(db, userId);
  await db.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
  await db
    .update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
}
