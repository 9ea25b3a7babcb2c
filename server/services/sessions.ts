import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Db } from "../db/client.ts";
import { loginChallenges, rememberedDevices, sessions } from "../db/schema/index.ts";
import { sha256 } from "../core/crypto.ts";
import { describeBrowser } from "./userAgent.ts";

export const SESSION_COOKIE = "portal_sid";
export const CHALLENGE_COOKIE = "portal_mfa";
export const REMEMBER_COOKIE = "portal_trusted";
/** Sliding: a session unused for 7 days ends... */
const SESSION_DAYS = 7;
/** ...and every session ends 30 days after its sign-in, however much it is used. */
const SESSION_MAX_DAYS = 30;
/** Live sessions per person; a new sign-in beyond this ends the oldest. */
export const MAX_SESSIONS = 10;
const CHALLENGE_MINUTES = 10;
const REMEMBER_DAYS = 30;
const DAY = 86_400_000;

const newToken = () => randomBytes(32).toString("base64url");

/** Cookies are Secure everywhere but plain-http localhost development. */
export function cookieOptions(c: Context, maxAgeSeconds: number) {
  const url = new URL(c.req.url);
  const local = url.protocol === "http:" && ["localhost", "127.0.0.1"].includes(url.hostname);
  return { httpOnly: true, sameSite: "Lax" as const, secure: !local, path: "/", maxAge: maxAgeSeconds };
}

/** The sliding expiry from `now`, capped by the absolute lifetime from `createdAt`. */
const expiryAt = (createdAt: Date, now: Date) =>
  new Date(Math.min(now.getTime() + SESSION_DAYS * DAY, createdAt.getTime() + SESSION_MAX_DAYS * DAY));

/**
 * Starts a session, replacing any the browser held (the id changes at every sign-in), and
 * ends the person's oldest sessions beyond MAX_SESSIONS.
 */
export async function startSession(c: Context, db: Db, userId: number, now: Date) {
  const previous = getCookie(c, SESSION_COOKIE);
  if (previous) await db.delete(sessions).where(eq(sessions.idHash, sha256(previous)));
  const token = newToken();
  await db.insert(sessions).values({
    idHash: sha256(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: expiryAt(now, now),
    browser: describeBrowser(c.req.header("user-agent")),
  });
  const beyond = db
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.seq))
    .offset(MAX_SESSIONS);
  await db.delete(sessions).where(inArray(sessions.idHash, beyond));
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_DAYS * 86400));
}

/** The hash of this browser's session id (whether or not it is still valid). */
export function currentSessionHash(c: Context): string | null {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? sha256(token) : null;
}

/** The person's live sessions, newest first, marking the one this browser holds. */
export async function listSessions(c: Context, db: Db, userId: number, now: Date) {
  const mine = currentSessionHash(c);
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

/** Ends every session of the person but this browser's; returns how many ended. */
export async function endOtherSessions(c: Context, db: Db, userId: number): Promise<number> {
  const mine = currentSessionHash(c) ?? "";
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, mine)))
    .returning({ idHash: sessions.idHash });
  return ended.length;
}

/**
 * After a new password: every session, every half-done sign-in (password given, code owed)
 * and every remembered browser of the person ends, so nothing granted by the old password
 * or by an old "remember this device" outlives it.
 */
export async function endEverySignIn(db: Db, userId: number, now: Date) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
  await db
    .update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
}

/** Ends the browser's session, server side and cookie. */
export async function endSession(c: Context, db: Db) {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await db.delete(sessions).where(eq(sessions.idHash, sha256(token)));
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}

/**
 * The signed-in user id, or null; the sliding expiry is refreshed at most once an hour and
 * never beyond the absolute lifetime.
 */
export async function sessionUserId(c: Context, db: Db, now: Date): Promise<number | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  const [row] = await db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.idHash, sha256(token)),
        gt(sessions.expiresAt, now),
        // Sessions made before the absolute lifetime existed carry no cap in expiresAt.
        gt(sessions.createdAt, new Date(now.getTime() - SESSION_MAX_DAYS * DAY)),
      ),
    );
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > 3_600_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: expiryAt(row.createdAt, now) })
      .where(eq(sessions.idHash, row.idHash));
  }
  return row.userId;
}

/** After a correct password when a code is owed: remember who is half signed in. */
export async function startChallenge(c: Context, db: Db, userId: number, now: Date) {
  const token = newToken();
  await db.insert(loginChallenges).values({
    idHash: sha256(token),
    userId,
    expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
  });
  setCookie(c, CHALLENGE_COOKIE, token, cookieOptions(c, CHALLENGE_MINUTES * 60));
}

/** The pending challenge of this browser, if still valid. */
export async function currentChallenge(c: Context, db: Db, now: Date) {
  const token = getCookie(c, CHALLENGE_COOKIE);
  if (!token) return null;
  const [row] = await db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.idHash, sha256(token)), gt(loginChallenges.expiresAt, now)));
  return row ?? null;
}

/** Drops the challenge once used or abandoned. */
export async function endChallenge(c: Context, db: Db, idHash: string) {
  await db.delete(loginChallenges).where(eq(loginChallenges.idHash, idHash));
  deleteCookie(c, CHALLENGE_COOKIE, { path: "/" });
}

/** Marks this browser as trusted for the user's one-time code for 30 days. */
export async function rememberDevice(c: Context, db: Db, userId: number, now: Date) {
  const token = newToken();
  await db.insert(rememberedDevices).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + REMEMBER_DAYS * DAY),
  });
  setCookie(c, REMEMBER_COOKIE, token, cookieOptions(c, REMEMBER_DAYS * 86400));
}

/** True when this browser holds an unexpired, unrevoked remember-device token for the user. */
export async function isRememberedDevice(c: Context, db: Db, userId: number, now: Date): Promise<boolean> {
  const token = getCookie(c, REMEMBER_COOKIE);
  if (!token) return false;
  const [row] = await db
    .select()
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.tokenHash, sha256(token)), eq(rememberedDevices.userId, userId)));
  return !!row && !row.revokedAt && row.expiresAt > now;
}
