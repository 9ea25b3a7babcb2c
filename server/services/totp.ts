import { generate, generateSecret, generateURI } from "otplib";

const STEP = 30;

/** A new base32 secret for an authenticator app. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: "Device Portal", label: email, secret });
}

/**
 * Checks a code against the current step and one step either side, and returns the matched
 * time step. A step at or before `lastStep` is refused, so each code works once.
 */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  lastStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(now.getTime() / 1000 / STEP);
  for (const step of [current - 1, current, current + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if ((await generate({ secret, epoch: step * STEP })) === code) return step;
  }
  return null;
}

/** The code an authenticator shows at a given time (tests and the demo use it). */
export function totpAt(secret: string, at: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}
