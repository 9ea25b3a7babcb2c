import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { confirmedCount, visitorSettingsOf } from "../data/visitors.ts";
import { setVisitorsRecorded } from "../flows/reportEdits.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { getVisitorSettings, updateVisitorSettings } from "../../src/api/visitors.ts";

/**
 * The report builder's side of visitor subscriptions: the count of confirmed subscribers and
 * the "Visitors may subscribe" switch. Another subscription's report answers like a missing one.
 */
export function reportVisitorRoutes(deps: Deps) {
  const { db } = deps;
  const ownReport = async (c: Context) => {
    const id = idParam(c);
    const settings = await visitorSettingsOf(db, id);
    if (!settings) throw new ApiError(404, NOT_FOUND);
    inSubscription(authOf(c), settings);
    return id;
  };
  const answer = async (id: number) => {
    const settings = (await visitorSettingsOf(db, id))!;
    return {
      visitorsMaySubscribe: settings.visitorsMaySubscribe,
      subscriberCount: await confirmedCount(db, id),
    };
  };
  return new Hono()
    .get(getVisitorSettings.path, guard(getVisitorSettings, deps), async (c) =>
      reply(c, getVisitorSettings, await answer(await ownReport(c))),
    )
    .patch(updateVisitorSettings.path, guard(updateVisitorSettings, deps), async (c) => {
      const id = await ownReport(c);
      const { visitorsMaySubscribe } = await inputOf(c, updateVisitorSettings);
      await setVisitorsRecorded(deps, authOf(c), id, visitorsMaySubscribe);
      return reply(c, updateVisitorSettings, await answer(id));
    });
}
