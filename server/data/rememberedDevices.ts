import { and, eq, isNull } from "drizzle-orm";
import { sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import { rememberedDevices } from "../db/schema/index.ts";
import { tokenWhileCredentialsHold } from "./sessions.ts";
import { REMEMBER_DEVICE_DAYS } from "../../src/domain/auth.ts";

/** How long a browser stays trusted for the person's one-time code. */
export const REMEMBER_SECONDS = REMEMBER_DEVICE_DAYS * 86_400;

/**
 * Trusts a browser for the user's one-time code for 30 days; returns the token it keeps, or
 * null when a password reset came after the sign-in read `credentialVersion` (sessions.ts).
 */
export async function rememberDevice(
  db: Db,
  userId: number,
  credentialVersion: number,
  now: Date,
): Promise<string | null> {
  return tokenWhileCredentialsHold(db, { userId, credentialVersion }, (tx, tokenHash) =>
    tx.insert(rememberedDevices).values({
      userId,
      tokenHash,
      expiresAt: new Date(now.getTime() + REMEMBER_SECONDS * 1000),
    }),
  );
}

/** True when the token is an unexpired, unrevoked remember-device token of the user. */
export async function isRememberedDevice(db: Db, token: string, userId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select()
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.tokenHash, sha256(token)), eq(rememberedDevices.userId, userId)));
  return !!row && !row.revokedAt && row.expiresAt > now;
}

/** How many browsers the person has trusted that are still trusted. */
export async function countRemembered(db: Db, userId: number, now: Date): Promise<number> {
  const rows = await db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, userId));
  return rows.filter((r) => !r.revokedAt && r.expiresAt > now).length;
}

/** Revokes every browser the person trusted. */
export async function revokeRemembered(db: Db, userId: number, now: Date) {
  await db
    .update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
}
