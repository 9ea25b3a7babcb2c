import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { CHALLENGE_SECONDS, endChallenge, findChallenge, startChallenge } from "../data/challenges.ts";
import { isRememberedDevice, rememberDevice, REMEMBER_SECONDS } from "../data/rememberedDevices.ts";
import { endSession, SESSION_SECONDS, startSession } from "../data/sessions.ts";
import type { Db } from "../db/client.ts";
import { describeBrowser } from "./userAgent.ts";

export const SESSION_COOKIE = "portal_sid";
export const CHALLENGE_COOKIE = "portal_mfa";
export const REMEMBER_COOKIE = "portal_trusted";

/** Cookies are Secure everywhere but plain-http localhost development. */
export function cookieOptions(c: Context, maxAgeSeconds: number) {
  const url = new URL(c.req.url);
  const local = url.protocol === "http:" && ["localhost", "127.0.0.1"].includes(url.hostname);
  return { httpOnly: true, sameSite: "Lax" as const, secure: !local, path: "/", maxAge: maxAgeSeconds };
}

/** What randomToken() makes: base64url. A value of anything else is no session of ours. */
const TOKEN_VALUE = /^[A-Za-z0-9_-]+$/;

/**
 * The first `name` cookie's value, for cookies whose values are base64url tokens: no
 * percent-decoding, one pattern for the value. Every signed-in request (and its cached
 * session check) reads the session cookie; Hono's getCookie checked and decoded every pair
 * each time. A value outside base64url is no token, as a wrong token is.
 */
export function tokenCookie(header: string | undefined, name: string): string | null {
  for (const pair of header ? header.split(";") : []) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    // As Hono's getCookie: a value that is not one passes over to the next cookie of that name.
    if (TOKEN_VALUE.test(value)) return value;
  }
  return null;
}

/** This browser's session token, if it sends one (valid or not). */
export const sessionToken = (c: Context) => tokenCookie(c.req.header("cookie"), SESSION_COOKIE);

/**
 * Signs this browser in: a new session (the previous one of this browser ends) and its
 * cookie. False, with nothing set, when a password reset came after the sign-in read
 * `credentialVersion` (sign-ins made without a password pass none).
 */
export async function signInBrowser(
  c: Context,
  db: Db,
  userId: number,
  now: Date,
  credentialVersion?: number,
): Promise<boolean> {
  const browser = describeBrowser(c.req.header("user-agent"));
  const token = await startSession(
    db,
    { userId, previous: sessionToken(c), browser, credentialVersion },
    now,
  );
  if (token === null) return false;
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_SECONDS));
  return true;
}

/** Signs this browser out, server side and cookie. */
/** Ends this browser's session; returns whose it was (null when it signed no one in). */
export async function signOutBrowser(c: Context, db: Db): Promise<number | null> {
  const token = sessionToken(c);
  const userId = token ? await endSession(db, token) : null;
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return userId;
}

/**
 * Remembers in this browser that the person gave the password and owes a one-time code;
 * false, with nothing set, when a password reset came after `credentialVersion` was read.
 */
export async function startBrowserChallenge(
  c: Context,
  db: Db,
  userId: number,
  credentialVersion: number,
  now: Date,
): Promise<boolean> {
  const token = await startChallenge(db, userId, credentialVersion, now);
  if (token === null) return false;
  setCookie(c, CHALLENGE_COOKIE, token, cookieOptions(c, CHALLENGE_SECONDS));
  return true;
}

/** This browser's pending challenge, if still valid. */
export async function browserChallenge(c: Context, db: Db, now: Date) {
  const token = getCookie(c, CHALLENGE_COOKIE);
  return token ? findChallenge(db, token, now) : null;
}

/** Drops the challenge once used, and its cookie. */
export async function endBrowserChallenge(c: Context, db: Db, idHash: string) {
  await endChallenge(db, idHash);
  deleteCookie(c, CHALLENGE_COOKIE, { path: "/" });
}

/** Trusts this browser for the person's one-time code for 30 days. */
export async function rememberBrowser(
  c: Context,
  db: Db,
  userId: number,
  credentialVersion: number,
  now: Date,
) {
  const token = await rememberDevice(db, userId, credentialVersion, now);
  if (token !== null) setCookie(c, REMEMBER_COOKIE, token, cookieOptions(c, REMEMBER_SECONDS));
}

/** True when this browser is trusted for the person's one-time code. */
export async function isRememberedBrowser(c: Context, db: Db, userId: number, now: Date) {
  const token = getCookie(c, REMEMBER_COOKIE);
  return token ? isRememberedDevice(db, token, userId, now) : false;
}
