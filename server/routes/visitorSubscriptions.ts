import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { privateResponse } from "../http/headers.ts";
import { reply } from "../http/reply.ts";
import {
  confirmByLink,
  linkInfo,
  subscribe,
  subscriptionsOpen,
  unsubscribeByLink,
} from "../flows/visitorSubscriptions.ts";
import {
  confirmLink,
  confirmSubscription,
  subscribeToReport,
  subscriptionStatus,
  unsubscribe,
  unsubscribeLink,
  unsubscribeOneClick,
} from "../../src/api/visitors.ts";

/**
 * Visitors' alarm subscriptions to a shared report (token access: the report's hash, or an
 * emailed link's token). GETs of the emailed links only describe them; their pages' buttons POST.
 */
export function visitorSubscriptionRoutes(deps: Deps) {
  return new Hono()
    .get(subscriptionStatus.path, guard(subscriptionStatus, deps), async (c) =>
      reply(c, subscriptionStatus, { open: await subscriptionsOpen(deps, c.req.param("hash") ?? "") }),
    )
    .post(subscribeToReport.path, guard(subscribeToReport, deps), async (c) => {
      const { email } = await inputOf(c, subscribeToReport);
      const client = clientIp(c, deps.config.trustProxy);
      const message = await subscribe(deps, c.req.param("hash") ?? "", email, client);
      return reply(c, subscribeToReport, { message });
    })
    .get(confirmLink.path, guard(confirmLink, deps), privateResponse, async (c) => {
      const { token } = await inputOf(c, confirmLink);
      return reply(c, confirmLink, await linkInfo(deps, token, "confirm"));
    })
    .post(confirmSubscription.path, guard(confirmSubscription, deps), async (c) => {
      const { token } = await inputOf(c, confirmSubscription);
      return reply(c, confirmSubscription, await confirmByLink(deps, token));
    })
    .get(unsubscribeLink.path, guard(unsubscribeLink, deps), privateResponse, async (c) => {
      const { token } = await inputOf(c, unsubscribeLink);
      return reply(c, unsubscribeLink, await linkInfo(deps, token, "unsubscribe"));
    })
    .post(unsubscribe.path, guard(unsubscribe, deps), async (c) => {
      const { token } = await inputOf(c, unsubscribe);
      return reply(c, unsubscribe, await unsubscribeByLink(deps, token));
    })
    .post(unsubscribeOneClick.path, guard(unsubscribeOneClick, deps), async (c) => {
      await inputOf(c, unsubscribeOneClick);
      const { message } = await unsubscribeByLink(deps, c.req.param("token") ?? "");
      return reply(c, unsubscribeOneClick, { message });
    });
}
