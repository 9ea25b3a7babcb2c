import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import { authTokens } from "../db/schema/index.ts";

type Purpose = "register" | "reset";

/** Issues a single-use emailed token (registration or reset); only its hash is stored. */
export async function issueToken(
  db: Db,
  t: { purpose: Purpose; email: string; userId?: number; referrer?: string | null; hours: number },
  now: Date,
): Promise<string> {
  const token = randomToken();
  await db.insert(authTokens).values({
    purpose: t.purpose,
    email: t.email.trim().toLowerCase(),
    userId: t.userId ?? null,
    referrer: t.referrer ?? null,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + t.hours * 3_600_000),
  });
  return token;
}

/** A token of this purpose that is neither used nor expired. */
const usable = (token: string, purpose: Purpose, now: Date) =>
  and(
    eq(authTokens.tokenHash, sha256(token)),
    eq(authTokens.purpose, purpose),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, now),
  );

/** Takes a token once: marks it used and returns it, or null when unknown, used or expired. */
export async function takeToken(db: Db, token: string, purpose: Purpose, now: Date) {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(usable(token, purpose, now))
    .returning();
  return row ?? null;
}

/** Looks at a token without using it (to show the right form). */
export async function peekToken(db: Db, token: string, purpose: Purpose, now: Date) {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(usable(token, purpose, now));
  return row ?? null;
}

/**
 * Takes a reset token together with every other open reset token of the same person, in one
 * statement: once a link has set the password, no older link can set it again, and of two
 * links used at once only one wins (the other finds its rows already used). Returns the
 * person's id, or null when the token is unknown, used or expired.
 */
export async function takeResetToken(db: Db, token: string, now: Date): Promise<number | null> {
  const mine = db
    .select({ userId: authTokens.userId })
    .from(authTokens)
    .where(usable(token, "reset", now));
  const taken = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.purpose, "reset"), isNull(authTokens.usedAt), inArray(authTokens.userId, mine)))
    .returning({ userId: authTokens.userId, tokenHash: authTokens.tokenHash });
  const own = taken.find((t) => t.tokenHash === sha256(token));
  return own?.userId ?? null;
}
