import { and, desc, eq, isNull, notExists, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { accountMessageViews, accountMessages } from "../db/schema/index.ts";

/** Messages of the subscription, and those for everybody (no subscription). */
const visibleIn = (subscriptionId: number) =>
  or(eq(accountMessages.subscriptionId, subscriptionId), isNull(accountMessages.subscriptionId));

/** The messages of the subscription the person has not dismissed, newest first. */
export async function unreadMessages(db: Db, userId: number, subscriptionId: number) {
  const seen = db
    .select()
    .from(accountMessageViews)
    .where(
      and(eq(accountMessageViews.messageId, accountMessages.id), eq(accountMessageViews.userId, userId)),
    );
  return db
    .select({
      id: accountMessages.id,
      title: accountMessages.title,
      body: accountMessages.body,
      timeCreated: accountMessages.timeCreated,
    })
    .from(accountMessages)
    .where(and(visibleIn(subscriptionId), notExists(seen)))
    .orderBy(desc(accountMessages.timeCreated));
}

/** Marks a message read by the person; false when the subscription cannot see such a message. */
export async function dismissMessage(
  db: Db,
  d: { messageId: number; userId: number; subscriptionId: number },
  now: Date,
): Promise<boolean> {
  const [message] = await db
    .select()
    .from(accountMessages)
    .where(and(eq(accountMessages.id, d.messageId), visibleIn(d.subscriptionId)));
  if (!message) return false;
  await db
    .insert(accountMessageViews)
    .values({ messageId: d.messageId, userId: d.userId, timeViewed: now })
    .onConflictDoNothing();
  return true;
}
