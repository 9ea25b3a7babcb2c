import { and, eq, sql } from "drizzle-orm";
import { type Db, inTransaction, rows } from "../db/client.ts";
import { pendingUserAssignments, userAssignments } from "../db/schema/index.ts";
import { ApiError } from "../core/errors.ts";
import { roomFor, requireRoom } from "./planLimits.ts";
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
 * The places of a subscription's plan in use besides `email`'s own: its members and the
 * addresses of its invitations that still work (each holds a place until used or expired).
 */
function seatsTaken(tx: Db, subscriptionId: number, email: string, now: Date) {
  const since = new Date(now.getTime() - INVITATION_HOURS * 3_600_000).toISOString();
  return async () => {
    const [row] = await rows<{ n: number }>(
      tx,
      sql`select (select count(*)::int from user_assignments where subscription_id = ${subscriptionId})
        + (select count(distinct lower(email))::int from pending_user_assignments
           where subscription_id = ${subscriptionId} and created_at > ${since}::timestamptz
             and lower(email) <> ${email.toLowerCase()}) as n`,
    );
    return row?.n ?? 0;
  };
}

/** Whether the subscription's plan has a place for `email` (see seatsTaken); inside a transaction. */
export const roomForPerson = (tx: Db, subscriptionId: number, email: string, now: Date) =>
  roomFor(tx, subscriptionId, "users", seatsTaken(tx, subscriptionId, email, now));

/**
 * Adds a person to a subscription with a role, within the plan's user limit (403 past it).
 * False when they are a member already: the unique (user, subscription) index makes a second
 * grant, even one running at the same moment, add nothing.
 */
export async function addMember(
  db: Db,
  person: { id: number; email: string },
  subscriptionId: number,
  roleId: number,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const room = await roomFor(
      tx,
      subscriptionId,
      "users",
      seatsTaken(tx, subscriptionId, person.email, now),
    );
    // Asked under the subscription's lock: a grant of the same person that just finished is
    // seen, so the second of two says "already has access", not "no place left".
    if (await isMember(tx, person.id, subscriptionId)) return false;
    if (!room.ok) throw new ApiError(403, room.message);
    const added = await tx
      .insert(userAssignments)
      .values({ userId: person.id, subscriptionId, roleId })
      .onConflictDoNothing()
      .returning({ id: userAssignments.id });
    return added.length > 0;
  });
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
 * The invitation takes a place of the plan's user limit (403 when none is left).
 */
export async function createInvitation(
  db: Db,
  invite: { email: string; subscriptionId: number; roleId: number },
  now: Date,
): Promise<string> {
  return inTransaction(db, async (tx) => {
    const { subscriptionId, email } = invite;
    await requireRoom(tx, subscriptionId, "users", seatsTaken(tx, subscriptionId, email, now));
    const [pending] = await tx
      .insert(pendingUserAssignments)
      .values({ ...invite, createdAt: now })
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
