import { Hono } from "hono";
import { secondsOf } from "../core/time.ts";
import { ApiError } from "../core/errors.ts";
import { dismissMessage as markRead, unreadMessages } from "../data/messages.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf } from "../http/auth.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { dismissMessage, listMessages } from "../../src/api/accounts.ts";

/** Unread account messages of the active subscription, newest first, and dismissing one. */
export function accountMessageRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .get(listMessages.path, guard(listMessages, deps), async (c) => {
      const { user, subscription } = authOf(c);
      const unread = await unreadMessages(db, user.id, subscription.id);
      return reply(
        c,
        listMessages,
        unread.map((m) => ({ ...m, timeCreated: secondsOf(m.timeCreated), timeViewed: null })),
      );
    })
    .post(dismissMessage.path, guard(dismissMessage, deps), async (c) => {
      const { messageId } = await inputOf(c, dismissMessage);
      const { user, subscription } = authOf(c);
      if (!(await markRead(db, { messageId, userId: user.id, subscriptionId: subscription.id }, now())))
        throw new ApiError(404, [{ field: "messageId", message: "Message not found." }]);
      return reply(c, dismissMessage, { id: messageId });
    });
}
