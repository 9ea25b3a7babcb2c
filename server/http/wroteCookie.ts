import { createHmac } from "node:crypto";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { safeEqual } from "../core/crypto.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Set by noteWrites (http/readRouting.ts) when the request carries a valid wrote cookie. */
    clientWrote: boolean;
  }
}

/**
 * Set for a few seconds on the browser that a write was answered to (a guest payment, a
 * settings save): while it comes back with it, on any instance, its public reads skip the
 * replica and the answer cache, so it never sees the page from before its own write.
 *
 * Its value is `expiry.mac`: the expiry in epoch seconds and an HMAC-SHA256 of it (128 bits,
 * base64url) with a secret all instances share (data/serverSecrets.ts). A forged or replayed
 * value, or one that would last longer than the router's after-write time, counts as absent,
 * so nobody can send all their reads to the primary by setting the cookie themselves.
 */
export const WROTE_COOKIE = "portal_wrote";
/** The name of the signing key in server_secrets. */
export const WROTE_SECRET = "wrote-cookie";

const VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/;
const macOf = (secret: string, expiry: string) =>
  createHmac("sha256", secret).update(`${WROTE_COOKIE}:${expiry}`).digest("base64url").slice(0, 22);

/** The cookie's value for a write answered now, valid for `seconds`. */
export function wroteValue(secret: string, nowS: number, seconds: number): string {
  const expiry = String(nowS + seconds);
  return `${expiry}.${macOf(secret, expiry)}`;
}

/** True when `value` is one of ours, not yet expired, and no longer-lived than `seconds`. */
export function wroteValid(value: string, secret: string, nowS: number, seconds: number): boolean {
  const m = VALUE.exec(value);
  if (!m) return false;
  const expiry = Number(m[1]);
  if (expiry <= nowS || expiry > nowS + seconds) return false;
  return safeEqual(m[2]!, macOf(secret, m[1]!));
}

/** The wrote cookie's value as the browser sent it, if it sent one. */
export const wroteCookieOf = (c: Context): string | undefined => getCookie(c, WROTE_COOKIE);

/** True when this client wrote within the last few seconds (its cookie, checked by noteWrites, says so). */
export function clientWrote(c: Context): boolean {
  return c.get("clientWrote") === true;
}
