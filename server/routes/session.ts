import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../app.ts";
import { userAssignments, users } from "../db/schema/index.ts";
import { authOf, requireAuth } from "../http/auth.ts";
import { ApiError, jsonBody } from "../http/errors.ts";
import { sessionInformation, subscriptionStats } from "../services/sessionInfo.ts";
import { isKnownTimezone } from "../../src/domain/dates.ts";

const Settings = z.strictObject({
  temperatureScale: z.enum(["C", "F"], { error: "Choose C or F." }).optional(),
  timezone: z.string().refine(isKnownTimezone, "Unknown time zone.").optional(),
});

/** The signed-in session: who, which subscription, terms, settings. */
export function sessionRoutes({ db, now: clock }: AppDeps) {
  const now = () => clock?.() ?? new Date();
  return new Hono()
    .use(requireAuth(db, now))
    .get("/", async (c) => {
      const auth = authOf(c);
      return c.json({
        success: true,
        data: {
          sessionInformation: await sessionInformation(db, auth),
          termsAccepted: auth.user.termsAcceptedAt !== null,
        },
      });
    })
    .get("/subscription/stats", async (c) =>
      c.json({ success: true, data: await subscriptionStats(db, authOf(c)) }),
    )
    .get("/terms-accepted", (c) =>
      c.json({ success: true, data: { termsAccepted: authOf(c).user.termsAcceptedAt !== null } }),
    )
    .post("/terms-accepted", async (c) => {
      const { user } = authOf(c);
      if (!user.termsAcceptedAt)
        await db.update(users).set({ termsAcceptedAt: now() }).where(eq(users.id, user.id));
      return c.json({ success: true, data: { termsAccepted: true } });
    })
    .patch("/settings", async (c) => {
      const body = await jsonBody(c, Settings);
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
    .post("/active-subscription", async (c) => {
      const { subscriptionId } = await jsonBody(
        c,
        z.strictObject({ subscriptionId: z.number().int().positive() }),
      );
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
