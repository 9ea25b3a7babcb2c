import { Hono } from "hono";
import { secondsOf } from "../core/time.ts";
import { endOtherSessions as endOthers, listSessions as sessionsOf } from "../data/sessions.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf } from "../http/auth.ts";
import { sessionToken } from "../http/cookies.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import { endOtherSessions, listSessions } from "../../src/api/accounts.ts";

/** The signed-in person's live sessions: list them and sign out everywhere else. */
export function accountSessionRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .get(listSessions.path, guard(listSessions, deps), async (c) => {
      const list = await sessionsOf(db, authOf(c).user.id, sessionToken(c), now());
      return reply(
        c,
        listSessions,
        list.map((s) => ({ ...s, createdAt: secondsOf(s.createdAt), lastSeenAt: secondsOf(s.lastSeenAt) })),
      );
    })
    .delete(endOtherSessions.path, guard(endOtherSessions, deps), async (c) => {
      const ended = await audited(
        deps,
        (tx) => endOthers(tx, authOf(c).user.id, sessionToken(c)),
        (count) => ({
          ...byUser(authOf(c)),
          action: "session.end-others",
          always: true,
          after: { ended: count },
        }),
      );
      return reply(c, endOtherSessions, { ended });
    });
}
