import { and, eq, gt } from "drizzle-orm";
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import { loginChallenges } from "../db/schema/index.ts";

const CHALLENGE_MINUTES = 10;
/** How long a half-done sign-in (password given, one-time code owed) waits for its code. */
export const CHALLENGE_SECONDS = CHALLENGE_MINUTES * 60;

/** After a correct password when a code is owed: remembers who is half signed in; returns its token. */
export async function startChallenge(db: Db, userId: number, now: Date): Promise<string> {
  const token = randomToken();
  await db.insert(loginChallenges).values({
    idHash: sha256(token),
    userId,
    expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
  });
  return token;
}

/** The pending challenge a token names, if still valid. */
export async function findChallenge(db: Db, token: string, now: Date) {
  const [row] = await db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.idHash, sha256(token)), gt(loginChallenges.expiresAt, now)));
  return row ?? null;
}

/** Drops the challenge once used. */
export async function endChallenge(db: Db, idHash: string) {
  await db.delete(loginChallenges).where(eq(loginChallenges.idHash, idHash));
}
