import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * sha256 hex of a secret: only hashes of tokens, session ids and device keys are stored.
 * One-shot `hash` (no Hash object): every signed-in request and device push hashes its token.
 */
export function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

/** An unguessable token for links, cookies and device keys (32 bytes = 256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Compares a presented key with a stored sha256 hash in constant time. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Compares two secrets in constant time (their hashes, so unequal lengths leak nothing). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash("sha256", a, "buffer"), hash("sha256", b, "buffer"));
}

/**
 * A 128-bit token of hex digits only: quote tokens go through the lookup's "contains 'ord'
 * means order" rule, and hex has no 'o' or 'r'.
 */
export function hexToken(bytes = 16): string {
  return randomBytes(bytes).toString("hex");
}
