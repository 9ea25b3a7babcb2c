import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { rememberedDevices, users } from "../db/schema/index.ts";

/** Keeps a new secret aside until a first code confirms it. */
export async function setPendingSecret(db: Db, userId: number, secret: string) {
  await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
}

/**
 * Turns the code on with the confirmed secret; `step` (the confirming code's) cannot be used
 * again. Raises the credential version as a password reset does: a sign-in that read the
 * person before the code was on, and is still checking their password, starts no session
 * without a code (sessions.ts, credentialsStill).
 */
export async function enableTotp(db: Db, userId: number, secret: string, step: number) {
  await db
    .update(users)
    .set({
      totpSecret: secret,
      totpPendingSecret: null,
      totpLastStep: step,
      credentialVersion: sql`${users.credentialVersion} + 1`,
    })
    .where(eq(users.id, userId));
}

/** Turns the code off and, in the same transaction, revokes every browser trusted to skip it. */
export async function disableTotp(db: Db, userId: number, now: Date) {
  await inTransaction(db, async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
      .where(eq(users.id, userId));
    await tx
      .update(rememberedDevices)
      .set({ revokedAt: now })
      .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
  });
}

/**
 * Claims a code's time step atomically: true for the first request that uses it, false for
 * a step at or before the last one used, so a code works once even when two requests race.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return claimed.length === 1;
}
