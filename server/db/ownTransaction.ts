// Transactions of our own on node-postgres, for one thing Drizzle's cannot do: send a statement
// in the same message as COMMIT. The audit trail's row is written that way (data/audit.ts): it
// commits with its change, yet costs the change no round trip of its own (issue 37: "within
// 5 %"). Drizzle's session and transaction classes are reused, so queries inside run exactly
// as in Drizzle's own transactions; only BEGIN, COMMIT and ROLLBACK are sent here.
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres/session";
import type { PoolClient } from "pg";
import type { Db } from "./client.ts";
import { insertText, type Literal } from "./literal.ts";
import { writeWatch } from "./requestWrites.ts";

/** An open transaction's statements waiting for its COMMIT. */
interface Open {
  tails: string[];
  /** Ended: a row queued now would never be sent. */
  closed?: boolean;
}
const open = new WeakMap<object, Open>();

/** What our transactions take from the pool's Drizzle session (fields Drizzle keeps internal). */
interface PoolSession {
  client: { connect(): Promise<PoolClient>; totalCount?: number };
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

/**
 * `work` in a transaction of our own when `db` is a node-postgres pool (null otherwise: PGlite
 * runs Drizzle's, in process, where a round trip costs nothing). Inside one, a nested call is
 * Drizzle's savepoint, and what it queued is dropped when it rolls back.
 */
export function ownTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  settings: TxSettings = {},
): Promise<T> | null {
  const outer = open.get(db);
  if (outer) return savepoint(db, outer, work);
  const session = (db as unknown as { session: unknown }).session;
  if (!(session instanceof NodePgSession)) return null;
  const pooled = session as unknown as PoolSession;
  // Only a pool: a session on one client (a migration's) has no connections to hand out.
  if (!("totalCount" in pooled.client)) return null;
  return run(pooled, work, settings);
}

/** Settings a transaction starts with (`set local`), sent in BEGIN's own message. */
export interface TxSettings {
  /** lock_timeout in milliseconds: a row lock waited for longer fails the statement (55P03). */
  lockTimeoutMs?: number;
}

/** The `set local` statements of `settings`, as text. */
export function settingsText(settings: TxSettings): string[] {
  const out: string[] = [];
  if (settings.lockTimeoutMs !== undefined) {
    if (!Number.isSafeInteger(settings.lockTimeoutMs) || settings.lockTimeoutMs < 0)
      throw new RangeError(`not a lock timeout: ${settings.lockTimeoutMs}`);
    out.push(`set local lock_timeout = ${settings.lockTimeoutMs}`);
  }
  return out;
}

async function run<T>(pooled: PoolSession, work: (tx: Db) => Promise<T>, settings: TxSettings): Promise<T> {
  const client = await pooled.client.connect();
  const session = new NodePgSession(client, pooled.dialect, pooled.schema, pooled.options);
  const tx = new NodePgTransaction(pooled.dialect, session, pooled.schema);
  const state: Open = { tails: [] };
  open.set(tx, state);
  let lost: Error | undefined;
  try {
    // BEGIN and its settings in one message: one round trip (simple protocol, text only).
    await client.query(["begin", ...settingsText(settings)].join(";\n"));
    const result = await work(tx as unknown as Db);
    // One message, one round trip: the queued statements run in order, then COMMIT; the first
    // that fails stops the rest (COMMIT too), and the ROLLBACK below ends the transaction.
    const sent = await client.query(state.tails.length ? `${state.tails.join(";\n")};\ncommit` : "commit");
    // PostgreSQL answers COMMIT in a transaction a caught error aborted with ROLLBACK, not an
    // error: the work did not commit, and its caller must not hear that it did.
    const last = Array.isArray(sent) ? sent.at(-1) : sent;
    if (last?.command !== "COMMIT")
      throw new Error("the transaction was rolled back: a statement in it failed");
    return result;
  } catch (err) {
    await client.query("rollback").catch((e: Error) => (lost = e));
    throw err;
  } finally {
    state.closed = true;
    // A connection that could not even roll back is closed, not handed to the next request.
    client.release(lost);
  }
}

async function savepoint<T>(db: Db, outer: Open, work: (tx: Db) => Promise<T>): Promise<T> {
  const mark = outer.tails.length;
  try {
    return await db.transaction((tx) => {
      open.set(tx, outer);
      return work(tx as unknown as Db);
    });
  } catch (err) {
    outer.tails.length = mark;
    throw err;
  }
}

/**
 * Inserts `row` into `table` as the transaction `tx` commits, in COMMIT's own message, when
 * `tx` is one of our own; at once otherwise (PGlite, or no transaction). Nothing can read the
 * row before the commit, so it must be one nothing in the transaction reads back.
 */
export async function withCommit(tx: Db, table: string, row: Record<string, Literal>): Promise<void> {
  return statementWithCommit(tx, insertText(table, row), `a row for ${table}`);
}

/**
 * Runs `text` (a statement written with literal.ts, never with input pasted in) as `tx`
 * commits, in COMMIT's own message, as withCommit does a row; at once when `tx` is not one of
 * our own. Its result is not read.
 */
export async function statementWithCommit(tx: Db, text: string, what = "a statement"): Promise<void> {
  const state = open.get(tx);
  if (!state) return void (await tx.execute(text));
  if (state.closed) throw new Error(`${what} queued on a transaction that has ended`);
  // Sent past Drizzle, so past its logger: told here, as Drizzle would have (requestWrites.ts).
  writeWatch.logQuery(text);
  state.tails.push(text);
}
