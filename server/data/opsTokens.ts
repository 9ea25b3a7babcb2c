import { and, asc, eq, isNull } from "drizzle-orm";
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import { opsTokens } from "../db/schema/index.ts";

/** Every ops token starts so, which makes a leaked one easy to recognise in logs and scanners. */
export const OPS_TOKEN_PREFIX = "ops_";

/** Creates a token (256 random bits after the prefix); the text is returned once, only its hash is kept. */
export async function createOpsToken(db: Db, name: string, now: Date) {
  const token = `${OPS_TOKEN_PREFIX}${randomToken(32)}`;
  const [row] = await db
    .insert(opsTokens)
    .values({ name, tokenHash: sha256(token), createdAt: now })
    .returning({ id: opsTokens.id });
  return { id: row!.id, token };
}

/** Every token, oldest first, without hashes: what `token list` prints. */
export async function listOpsTokens(db: Db) {
  return db
    .select({
      id: opsTokens.id,
      name: opsTokens.name,
      createdAt: opsTokens.createdAt,
      lastUsedAt: opsTokens.lastUsedAt,
      revokedAt: opsTokens.revokedAt,
    })
    .from(opsTokens)
    .orderBy(asc(opsTokens.id));
}

/** Revokes a token at once; false when no live token has the id. */
export async function revokeOpsToken(db: Db, id: number, now: Date): Promise<boolean> {
  const revoked = await db
    .update(opsTokens)
    .set({ revokedAt: now })
    .where(and(eq(opsTokens.id, id), isNull(opsTokens.revokedAt)))
    .returning({ id: opsTokens.id });
  return revoked.length > 0;
}

/**
 * The live token a request presents, found by the hash of what it sent (so no comparison of
 * secrets runs in JavaScript), or null for an unknown or revoked one; notes its last use.
 */
export async function opsTokenOf(db: Db, presented: string, now: Date) {
  if (!presented.startsWith(OPS_TOKEN_PREFIX)) return null;
  const [row] = await db
    .update(opsTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(opsTokens.tokenHash, sha256(presented)), isNull(opsTokens.revokedAt)))
    .returning({ id: opsTokens.id, name: opsTokens.name });
  return row ?? null;
}
