import { eq, sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { users } from "../db/schema/index.ts";
import { endEverySignIn } from "./sessions.ts";
import { takeResetToken } from "./tokens.ts";
import type { User } from "./users.ts";

/**
 * Sets the password an emailed reset link was sent for, in one transaction: the link (and
 * every other open reset link of the person) is used up, and every session, half-done
 * sign-in and remembered browser of the person ends. Null when the link is not usable.
 */
export async function setPasswordFromLink(
  db: Db,
  token: string,
  passwordHash: string,
  now: Date,
): Promise<User | null> {
  return inTransaction(db, async (tx) => {
    const userId = await takeResetToken(tx, token, now);
    if (userId === null) return null;
    // A new version: a sign-in still checking the old password starts nothing (sessions.ts).
    const [changed] = await tx
      .update(users)
      .set({ passwordHash, credentialVersion: sql`${users.credentialVersion} + 1` })
      .where(eq(users.id, userId))
      .returning();
    await endEverySignIn(tx, userId, now);
    return changed ?? null;
  });
}
