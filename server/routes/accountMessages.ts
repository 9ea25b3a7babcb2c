import { and, desc, eq, isNull, notExists, or } from "drizzle-orm";
import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { accountMessageViews, accountMessages } from "../db/schema/index.ts";
import { authOf, requireAuth } from "../http/auth.ts";
import { ApiError } from "../core/errors.ts";
import { jsonBody } from "../http/input.ts";
import { dismissMessage } from "../../src/api/accounts.ts";

/** Unread account messages of the active subscription, newest first, and dismissing one. */
export function accountMessageRoutes({ db, now }: Deps) {
  const visible = (subscriptionId: number) =>
    or(eq(accountMessages.subscriptionId, subscriptionId), isNull(accountMessages.subscriptionId));
  return new Hono()
    .use(requireAuth(db, now))
    .get("/", async (c) => {
      const { user, subscription } = authOf(c);
      const unread = await db
        .select({
          id: accountMessages.id,
          title: accountMessages.title,
          body: accountMessages.body,
          timeCreated: accountMessages.timeCreated,
        })
        .from(accountMessages)
        .where(
          and(
            visible(subscription.id),
            notExists(
              db
                .select()
                .from(accountMessageViews)
                .where(
                  and(
                    eq(accountMessageViews.messageId, accountMessages.id),
                    eq(accountMessageViews.userId, user.id),
                  ),
                ),
            ),
          ),
        )
        .orderBy(desc(accountMessages.timeCreated));
      const list = unread.map((m) => ({
        ...m,
        timeCreated: Math.floor(m.timeCreated.getTime() / 1000),
        timeViewed: null,
      }));
      return c.json({ success: true, data: list });
    })
    .post("/dismiss-message", async (c) => {
      const { messageId } = await jsonBody(c, dismissMessage.request);
      const { user, subscription } = authOf(c);
      const [message] = await db
        .select()
        .from(accountMessages)
        .where(and(eq(accountMessages.id, messageId), visible(subscription.id)));
      if (!message) throw new ApiError(404, [{ field: "messageId", message: "Message not found." }]);
      await db
        .insert(accountMessageViews)
        .values({ messageId, userId: user.id, timeViewed: now() })
        .onConflictDoNothing();
      return c.json({ success: true, data: { id: messageId } });
    });
}
