import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { userAssignments, users } from "../db/schema/index.ts";
import { authOf, requireAuth } from "../http/auth.ts";
import { ApiError } from "../core/errors.ts";
import { jsonBody } from "../http/input.ts";
import { sessionInformation, subscriptionStats } from "../services/sessionInfo.ts";
import { patchSettings, setActiveSubscription } from "../../src/api/session.ts";

/** The signed-in session: who, which subscription, terms, settings. */
export function sessionRoutes({ db, now }: Deps) {
  // Who is signed in and the terms themselves: what a person needs to reach and accept them.
  const beforeTerms = requireAuth(db, now, { beforeTerms: true });
  const member = requireAuth(db, now);
  return new Hono()
    .get("/", beforeTerms, async (c) => {
      const auth = authOf(c);
      return c.json({
        success: true,
        data: {
          sessionInformation: await sessionInformation(db, auth),
          termsAccepted: auth.user.termsAcceptedAt !== null,
        },
      });
    })
    .get("/subscription/stats", member, async (c) =>
      c.json({ success: true, data: await subscriptionStats(db, authOf(c)) }),
    )
    .get("/terms-accepted", beforeTerms, (c) =>
      c.json({ success: true, data: { termsAccepted: authOf(c).user.termsAcceptedAt !== null } }),
    )
    .post("/terms-accepted", beforeTerms, async (c) => {
      const { user } = authOf(c);
      if (!user.termsAcceptedAt)
        await db.update(users).set({ termsAcceptedAt: now() }).where(eq(users.id, user.id));
      return c.json({ success: true, data: { termsAccepted: true } });
    })
    .patch("/settings", member, async (c) => {
      // The contract refuses an empty patch: a save that names no setting is a client bug.
      const body = await jsonBody(c, patchSettings.request);
      const [user] = await db
        .update(users)
        .set(body)
        .where(eq(users.id, authOf(c).user.id))
        .returning();
      return c.json({
        success: true,
        data: { temperatureScale: user!.temperatureScale, timezone: user!.timezone },
      });
    })
    .post("/active-subscription", member, async (c) => {
      const { subscriptionId } = await jsonBody(c, setActiveSubscription.request);
      const { user } = authOf(c);
      const [assignment] = await db
        .select()
        .from(userAssignments)
        .where(and(eq(userAssignments.userId, user.id), eq(userAssignments.subscriptionId, subscriptionId)));
      if (!assignment)
        throw new ApiError(403, [
          { field: "subscriptionId", message: "You do not belong to that subscription." },
        ]);
      await db.update(users).set({ activeSubscriptionId: subscriptionId }).where(eq(users.id, user.id));
      return c.json({ success: true, data: { activeSubscriptionId: subscriptionId } });
    });
}
