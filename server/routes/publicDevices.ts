import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { deviceByPublicHash, deviceGeneral } from "../data/devices.ts";
import { sensorsOfDevice } from "../data/sensors.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cachedAnswer } from "../http/answers.ts";
import { readsOf } from "../http/readRouting.ts";
import { sendSerialized, serialized } from "../http/reply.ts";
import { getPublicDeviceDetails } from "../../src/api/devices.ts";

/**
 * The public device page's read, by the device's public page hash. A malformed, unknown,
 * deleted or regenerated hash, or a plan without public links, answers the same 404.
 * The answer is the same for every visitor, so it is cached as the shared report's is
 * (http/answers.ts): any write on this instance (a rename, a new or deleted link, a plan
 * change) empties the cache, other instances show it within ANSWER_CACHE_MS, and the
 * readings between pushes come over the live socket anyway. A 404 is never kept.
 */
export function publicDeviceRoutes(deps: Deps) {
  return new Hono().get(getPublicDeviceDetails.path, guard(getPublicDeviceDetails, deps), async (c) => {
    const hash = c.req.param("publicPageHash") ?? "";
    const answer = await cachedAnswer(c, deps.answers, `device:${hash}`, () =>
      // Read on the replica when it may serve (no write in this read).
      readsOf(
        c,
        deps.reads,
      )(async (db) => {
        const device = await deviceByPublicHash(db, hash);
        if (!device) throw new ApiError(404, NOT_FOUND);
        const found = {
          general: await deviceGeneral(db, device, "public"),
          sensors: await sensorsOfDevice(db, device.id, "public"),
        };
        return serialized(getPublicDeviceDetails, { device: found });
      }),
    );
    return sendSerialized(c, answer);
  });
}
