import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { ApiError } from "../core/errors.ts";
import { planLimit, planLimitMessage, type PlanLimit } from "../../src/domain/plan.ts";

/**
 * Whether the subscription has room for one more of a counted kind (reports, users). Runs
 * inside the adding transaction and locks the subscription's row first, so two additions at
 * the same moment count one after the other: a count read before a concurrent insert would
 * let both pass and the account end over its plan.
 */
export async function roomFor(
  tx: Db,
  subscriptionId: number,
  kind: PlanLimit,
  used: () => Promise<number>,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const [row] = await rows<{ limits: Record<string, unknown> | null }>(
    tx,
    sql`select limits from subscriptions where id = ${subscriptionId} for update`,
  );
  const limit = planLimit(row?.limits ?? {}, kind);
  if (limit === null || (await used()) < limit) return { ok: true };
  return { ok: false, message: planLimitMessage(kind, limit) };
}

/** roomFor, refusing with 403 and the plan's number when there is none. */
export async function requireRoom(
  tx: Db,
  subscriptionId: number,
  kind: PlanLimit,
  used: () => Promise<number>,
): Promise<void> {
  const room = await roomFor(tx, subscriptionId, kind, used);
  if (!room.ok) throw new ApiError(403, room.message);
}
