import { and, eq, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { pendingUserAssignments, userAssignments } from "../db/schema/index.ts";
import { issueToken } from "./tokens.ts";

/** How long an invitation link works (once). */
export const INVITATION_HOURS = 72;

/** The referrer an invitation's registration token carries: the pending assignment it fulfils. */
const INVITE = /^invite-(\d{1,10})$/;

/** The subscription a quote or order belongs to; undefined when the record does not exist. */
export async function recordSubscription(
  db: Db,
  kind: "quote" | "order",
  id: number,
): Promise<{ subscriptionId: number | null } | undefined> {
  const table = kind === "quote" ? sql`quotes` : sql`orders`;
  const [row] = await rows<{ subscription_id: number | null }>(
    db,
    sql`select subscription_id from ${table} where id = ${id}`,
  );
  return row ? { subscriptionId: row.subscription_id } : undefined;
}

/**
 * Adds a person to a subscription with a role. The unique (user, subscription) index makes a
 * second grant, even one running at the same moment, add nothing: false then.
 */
export async function addMember(db: Db, userId: number, subscriptionId: number, roleId: number) {
  const added = await db
    .insert(userAssignments)
    .values({ userId, subscriptionId, roleId })
    .onConflictDoNothing()
    .returning({ id: userAssignments.id });
  return added.length > 0;
}

/** Is this person already in the subscription? */
export async function isMember(db: Db, userId: number, subscriptionId: number) {
  const [row] = await db
    .select({ id: userAssignments.id })
    .from(userAssignments)
    .where(and(eq(userAssignments.userId, userId), eq(userAssignments.subscriptionId, subscriptionId)));
  return row !== undefined;
}

/**
 * Records an invitation (the subscription and role waiting for the address) and issues its
 * registration token, stored hashed, single use, expiring; returns the raw token for the mail.
 */
export async function createInvitation(
  db: Db,
  invite: { email: string; subscriptionId: number; roleId: number },
  now: Date,
): Promise<string> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [pending] = await tx
      .insert(pendingUserAssignments)
      .values(invite)
      .returning({ id: pendingUserAssignments.id });
    const referrer = `invite-${pending!.id}`;
    return issueToken(
      tx,
      { purpose: "register", email: invite.email, referrer, hours: INVITATION_HOURS },
      now,
    );
  });
}

/**
 * At registration: the invitation a token's referrer names, when it was made for this address;
 * taken (deleted) so it places one account once. Null for any other referrer.
 */
export async function takeInvitation(
  db: Db,
  referrer: string | null,
  email: string,
): Promise<{ id: number; roleId: number } | null> {
  const id = Number(INVITE.exec(referrer ?? "")?.[1]);
  if (!(id >= 1 && id <= 2_147_483_647)) return null;
  const [row] = await db
    .delete(pendingUserAssignments)
    .where(
      and(
        eq(pendingUserAssignments.id, id),
        sql`lower(${pendingUserAssignments.email}) = ${email.toLowerCase()}`,
      ),
    )
    .returning({ id: pendingUserAssignments.subscriptionId, roleId: pendingUserAssignments.roleId });
  return row ?? null;
}
