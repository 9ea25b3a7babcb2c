import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** sha256 hex of a secret; only hashes of device keys and tokens are stored. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A new random push key for a real device (256 bits). */
export function newDeviceKey(): string {
  return randomBytes(32).toString("base64url");
}

/** Unguessable public token (at least 128 bits) for links. */
export function newPublicToken(bytes = 18): string {
  return randomBytes(bytes).toString("base64url");
}

/** Compares a presented key with a stored hash in constant time. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Demo devices get keys derived from their MAC so the seed stays deterministic and the
 * simulator can sign its pushes; only demo data uses this.
 */
export function demoDeviceKey(macAddress: string): string {
  return sha256(`demo-device-key:${macAddress}`).slice(0, 43);
}
