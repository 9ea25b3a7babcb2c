import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { deviceList, linkById } from "../data/devices.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { getLink } from "../../src/api/links.ts";

/** A link of the active subscription (/links/{linkId}) and the devices connected through it. */
export function linkRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(getLink.path, guard(getLink, deps), async (c) => {
    const link = await linkById(db, idParam(c, "linkId"));
    if (!link) throw new ApiError(404, NOT_FOUND);
    const auth = authOf(c);
    inSubscription(auth, link);
    return reply(c, getLink, {
      link: { id: link.id, name: link.name },
      deviceList: await deviceList(db, auth.subscription.id, now(), link.id),
    });
  });
}
