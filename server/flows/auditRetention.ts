// Audit retention (docs/decisions.md, "Audit trail"): each subscription keeps its trail for the
// longer of its plan's data age and AUDIT_MIN_YEARS; older rows leave from the start of the
// chain only, and the head records where the chain now starts, so what is kept still verifies.
// A daily job on every instance; each chain is taken with SKIP LOCKED, one at a time.
import { sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import { dataAgeLimitSeconds } from "../../src/domain/plan.ts";

/** The law-minded floor: EU GMP keeps batch records 5 years, 21 CFR 211.180 1 year past expiry. */
export const AUDIT_MIN_YEARS = 7;
const YEAR_S = 365 * 86_400;
/**
 * Chain 0 holds sign-in attempts for addresses nobody has: what strangers typed, not a
 * customer's record. Kept 90 days, as a security log is, not seven years (the attack review
 * of 2026-11-29 asked whose data that is).
 */
export const UNOWNED_DAYS = 90;

/** The least a chain keeps (seconds): chain 0 UNOWNED_DAYS, any other `minYears` (its plan may ask longer). */
export const auditFloorSeconds = (subscriptionId: number, minYears = AUDIT_MIN_YEARS) =>
  subscriptionId === 0 ? UNOWNED_DAYS * 86_400 : minYears * YEAR_S;

/** Removes what every chain may let go of; returns how many rows left. */
export async function trimAuditTrail(db: Db, now: Date, minYears = AUDIT_MIN_YEARS): Promise<number> {
  const chains = await rows<{ subscription_id: number; limits: Record<string, unknown> | null }>(
    db,
    sql`select h.subscription_id, s.limits from audit_heads h left join subscriptions s on s.id = h.subscription_id`,
  );
  let removed = 0;
  for (const chain of chains) {
    const floor = auditFloorSeconds(chain.subscription_id, minYears);
    const keep =
      chain.subscription_id === 0 ? floor : Math.max(floor, dataAgeLimitSeconds(chain.limits ?? {}) ?? 0);
    const cutoff = new Date(now.getTime() - keep * 1000);
    removed += await inTransaction(db, (tx) => trimChain(tx, chain.subscription_id, cutoff));
  }
  return removed;
}

/** One chain: the head taken (skipped when a sealer or another instance holds it), the old prefix cut. */
async function trimChain(tx: Db, subscriptionId: number, cutoff: Date): Promise<number> {
  const [head] = await rows<{ seq: string | number }>(
    tx,
    sql`select seq from audit_heads where subscription_id = ${subscriptionId} for update skip locked`,
  );
  if (!head) return 0;
  // The first row to keep: the oldest chained at or after the cutoff (unsealed rows are younger still).
  const [first] = await rows<{ seq: string | number; prev_hash: string }>(
    tx,
    sql`select seq, prev_hash from audit_log where subscription_id = ${subscriptionId} and at >= ${cutoff}
          and seq is not null
        order by seq limit 1`,
  );
  // Nothing younger than the cutoff: everything up to the head goes, and the chain restarts after it.
  const keepFrom = first ? Number(first.seq) : Number(head.seq) + 1;
  const gone = await rows<{ n: number }>(
    tx,
    sql`with d as (delete from audit_log where subscription_id = ${subscriptionId} and seq < ${keepFrom} returning 1)
        select count(*)::int as n from d`,
  );
  const n = gone[0]?.n ?? 0;
  if (n > 0)
    await tx.execute(
      sql`update audit_heads set first_seq = ${keepFrom},
            first_prev_hash = ${first ? first.prev_hash : sql`hash`}
          where subscription_id = ${subscriptionId}`,
    );
  return n;
}
