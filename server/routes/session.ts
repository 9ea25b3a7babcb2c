import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { sessionInformation, subscriptionStats } from "../data/sessionInfo.ts";
import { acceptTerms as recordTerms, saveSettings, switchSubscription } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf } from "../http/auth.ts";
import { inputOf } from "../http/input.ts";
import { sessionAnswers } from "../http/answers.ts";
import { reply, sendSerialized, serialized } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import { EntityType } from "../../src/domain/enums.ts";
import {
  acceptTerms,
  getSession,
  getStats,
  getTermsAccepted,
  patchSettings,
  setActiveSubscription,
} from "../../src/api/session.ts";

const NOT_A_MEMBER = "You do not belong to that subscription.";

/** The signed-in session: who, which subscription, terms, settings. */
export function sessionRoutes(deps: Deps) {
  const { db, now } = deps;
  const sessions = sessionAnswers(deps.answers);
  return new Hono()
    .get(getSession.path, sessions.reuse, guard(getSession, deps), async (c) => {
      const auth = authOf(c);
      const answer = serialized(getSession, {
        sessionInformation: await sessionInformation(db, auth),
        termsAccepted: auth.user.termsAcceptedAt !== null,
      });
      return sendSerialized(c, sessions.keep(c, answer), { gzip: false });
    })
    .get(getStats.path, guard(getStats, deps), async (c) =>
      reply(c, getStats, await subscriptionStats(db, authOf(c))),
    )
    .get(getTermsAccepted.path, guard(getTermsAccepted, deps), (c) =>
      reply(c, getTermsAccepted, { termsAccepted: authOf(c).user.termsAcceptedAt !== null }),
    )
    .post(acceptTerms.path, guard(acceptTerms, deps), async (c) => {
      await audited(deps, (tx) => recordTerms(tx, authOf(c).user, now()), {
        ...byUser(authOf(c)),
        action: "user.terms",
        entityType: EntityType.USER,
        entityId: authOf(c).user.id,
        before: { termsAccepted: authOf(c).user.termsAcceptedAt !== null },
        after: { termsAccepted: true },
      });
      return reply(c, acceptTerms, { termsAccepted: true });
    })
    .patch(patchSettings.path, guard(patchSettings, deps), async (c) => {
      // The contract refuses an empty patch: a save that names no setting is a client bug.
      const patch = await inputOf(c, patchSettings);
      const { user } = authOf(c);
      const before = Object.fromEntries(
        Object.keys(patch).map((k) => [k, (user as Record<string, unknown>)[k] ?? null]),
      );
      const saved = await audited(deps, (tx) => saveSettings(tx, user.id, patch), {
        ...byUser(authOf(c)),
        action: "user.settings",
        entityType: EntityType.USER,
        entityId: user.id,
        before,
        after: patch,
      });
      return reply(c, patchSettings, saved);
    })
    .post(setActiveSubscription.path, guard(setActiveSubscription, deps), async (c) => {
      const { subscriptionId } = await inputOf(c, setActiveSubscription);
      if (!(await switchSubscription(db, authOf(c).user.id, subscriptionId)))
        throw new ApiError(403, [{ field: "subscriptionId", message: NOT_A_MEMBER }]);
      return reply(c, setActiveSubscription, { activeSubscriptionId: subscriptionId });
    });
}
