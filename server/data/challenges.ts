import { and, eq, gt } from "drizzle-orm";
import { sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import { loginChallenges, users } from "../db/schema/index.ts";
import { tokenWhileCredentialsHold } from "./sessions.ts";

const CHALLENGE_MINUTES = 10;
/** How long a half-done sign-in (password given, one-time code owed) waits for its code. */
export const CHALLENGE_SECONDS = CHALLENGE_MINUTES * 60;

/**
 * After a correct password when a code is owed: remembers who is half signed in; returns its
 * token, or null when a password reset came after the sign-in read `credentialVersion`.
 */
export async function startChallenge(
  db: Db,
  userId: number,
  credentialVersion: number,
  now: Date,
): Promise<string | null> {
  return tokenWhileCredentialsHold(db, { userId, credentialVersion }, (tx, idHash) =>
    tx.insert(loginChallenges).values({
      idHash,
      userId,
      expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
    }),
  );
}

/**
 * The pending challenge a token names, if still valid, with the person's credential version
 * read in the same statement: a reset deletes the challenges in the transaction that raises
 * it, so a challenge found here comes with the version its password was checked against.
 */
export async function findChallenge(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({
      idHash: loginChallenges.idHash,
      userId: loginChallenges.userId,
      credentialVersion: users.credentialVersion,
    })
    .from(loginChallenges)
    .innerJoin(users, eq(users.id, loginChallenges.userId))
    .where(and(eq(loginChallenges.idHash, sha256(token)), gt(loginChallenges.expiresAt, now)));
  return row ?? null;
}

/** Drops the challenge once used. */
export async function endChallenge(db: Db, idHash: string) {
  await db.delete(loginChallenges).where(eq(loginChallenges.idHash, idHash));
}
