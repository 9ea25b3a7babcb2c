import { and, eq, lt } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { paymentAttempts } from "../db/schema/index.ts";

export type AttemptRow = typeof paymentAttempts.$inferSelect;
/** The transaction an attempt's rows are written in (callers pass it on to data functions). */

/** The answer an attempt sent, replayed byte for byte to every request with its key. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** The non-card fields an attempt needs to be finished by a later request. */
export interface AttemptDetails {
  email: string;
  purchaseOrderNumber: string | null;
}

/** The attempt with this idempotency key, or null. */
export async function findAttempt(db: Db, key: string): Promise<AttemptRow | null> {
  const [row] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.idempotencyKey, key));
  return row ?? null;
}

/** The attempt now pending on a record ('order:5003'), or null. */
export async function pendingAttempt(db: Db, subject: string): Promise<AttemptRow | null> {
  const [row] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.subject, subject), eq(paymentAttempts.status, "pending")));
  return row ?? null;
}

/**
 * Opens a pending attempt. False when the key exists already or another attempt is pending on
 * the same record (the partial unique index): the caller looks at which.
 */
export async function startAttempt(
  db: Db,
  a: { key: string; subject: string; fingerprint: string; details: AttemptDetails },
  at: Date,
): Promise<boolean> {
  const inserted = await db
    .insert(paymentAttempts)
    .values({
      idempotencyKey: a.key,
      subject: a.subject,
      fingerprint: a.fingerprint,
      status: "pending",
      details: a.details,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .returning({ key: paymentAttempts.idempotencyKey });
  return inserted.length === 1;
}

/**
 * Takes over a pending attempt whose owner went quiet (compare-and-set on the time it was
 * last touched): of two requests that both find it stale, one wins.
 */
export async function takeOverAttempt(db: Db, row: AttemptRow, at: Date): Promise<boolean> {
  const taken = await db
    .update(paymentAttempts)
    .set({ updatedAt: at })
    .where(
      and(
        eq(paymentAttempts.idempotencyKey, row.idempotencyKey),
        eq(paymentAttempts.status, "pending"),
        eq(paymentAttempts.updatedAt, row.updatedAt),
      ),
    )
    .returning({ key: paymentAttempts.idempotencyKey });
  return taken.length === 1;
}

/**
 * Marks a pending attempt as still owned (its request is alive and waiting for the gateway),
 * so no other request takes it over as stale; an attempt already ended is left alone.
 */
export async function touchAttempt(db: Db, key: string, at: Date): Promise<void> {
  await db
    .update(paymentAttempts)
    .set({ updatedAt: at })
    .where(
      and(
        eq(paymentAttempts.idempotencyKey, key),
        eq(paymentAttempts.status, "pending"),
        // Heartbeats may land out of order on a connection pool: never move the time back.
        lt(paymentAttempts.updatedAt, at),
      ),
    );
}

/**
 * Ends a pending attempt in one transaction with the rows `work` writes: `work` runs only
 * while the attempt is still pending (the row is locked), and its answer is stored with them.
 * An attempt someone else finished gives back that stored answer, and `value` null.
 */
export async function completeAttempt<T>(
  db: Db,
  key: string,
  at: Date,
  work: (tx: Db) => Promise<{ answer: StoredAnswer; value: T | null }>,
): Promise<{ answer: StoredAnswer; value: T | null }> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.idempotencyKey, key))
      .for("update");
    if (!row) throw new Error("completeAttempt: no such attempt");
    if (row.status !== "pending") return { answer: row.response as StoredAnswer, value: null };
    const done = await work(tx);
    await tx
      .update(paymentAttempts)
      .set({
        status: done.answer.status < 300 ? "succeeded" : "failed",
        response: done.answer,
        updatedAt: at,
      })
      .where(eq(paymentAttempts.idempotencyKey, key));
    return done;
  });
}

/** Ends a pending attempt with a refusal (nothing else is written); the key's answer either way. */
export async function failAttempt(
  db: Db,
  key: string,
  answer: StoredAnswer,
  at: Date,
): Promise<StoredAnswer> {
  const { answer: stored } = await completeAttempt<never>(db, key, at, async () => ({ answer, value: null }));
  return stored;
}
