import { eq } from "drizzle-orm";
import { sha256 } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { opsRequests } from "../db/schema/index.ts";

export const KEY_REUSED =
  "This Idempotency-Key was already used for a different request; send a new key for a new write.";

/** What makes two requests "the same" for a key: method, path and the validated input. */
export function requestFingerprint(method: string, path: string, input: unknown): string {
  return sha256(`${method.toUpperCase()} ${path}\n${JSON.stringify(input ?? null)}`);
}

/**
 * Runs a back-office write once per Idempotency-Key, in one transaction with the key's row:
 * the key is claimed first (a parallel request with the same key waits on the claim, then
 * finds it), the write runs, and its answer is kept. The same key and request later answer
 * the kept answer; the same key with another request is a 409. A write that fails rolls its
 * claim back with it, so the key can be sent again.
 */
export async function onceByKey<T>(
  db: Db,
  req: { key: string; fingerprint: string; tokenId: number; now: Date },
  write: (tx: Db) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(opsRequests)
      .values({
        idempotencyKey: req.key,
        fingerprint: req.fingerprint,
        tokenId: req.tokenId,
        response: {},
        createdAt: req.now,
      })
      .onConflictDoNothing({ target: opsRequests.idempotencyKey })
      .returning({ key: opsRequests.idempotencyKey });
    if (!claimed.length) {
      const [prior] = await tx.select().from(opsRequests).where(eq(opsRequests.idempotencyKey, req.key));
      if (!prior || prior.fingerprint !== req.fingerprint) throw new ApiError(409, KEY_REUSED);
      return prior.response as T;
    }
    const answer = await write(tx);
    await tx
      .update(opsRequests)
      .set({ response: answer as object })
      .where(eq(opsRequests.idempotencyKey, req.key));
    return answer;
  });
}
