import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { authOf, requireAuth } from "../http/auth.ts";
import { endOtherSessions, listSessions } from "../services/sessions.ts";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The signed-in person's live sessions: list them and sign out everywhere else. */
export function accountSessionRoutes({ db, now }: Deps) {
  return new Hono()
    .use(requireAuth(db, now))
    .get("/", async (c) => {
      const list = await listSessions(c, db, authOf(c).user.id, now());
      return c.json({
        success: true,
        data: list.map((s) => ({ ...s, createdAt: seconds(s.createdAt), lastSeenAt: seconds(s.lastSeenAt) })),
      });
    })
    .delete("/others", async (c) => {
      const ended = await endOtherSessions(c, db, authOf(c).user.id);
      return c.json({ success: true, data: { ended } });
    });
}
