import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { deviceByPublicHash, deviceGeneral } from "../data/devices.ts";
import { sensorsOfDevice } from "../data/sensors.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { readsOf } from "../http/readRouting.ts";
import { reply } from "../http/reply.ts";
import { getPublicDeviceDetails } from "../../src/api/devices.ts";

/**
 * The public device page's read, by the device's public page hash. A malformed, unknown,
 * deleted or regenerated hash, or a plan without public links, answers the same 404.
 */
export function publicDeviceRoutes(deps: Deps) {
  return new Hono().get(getPublicDeviceDetails.path, guard(getPublicDeviceDetails, deps), async (c) => {
    // Read on the replica when it may serve (no write in this read).
    const found = await readsOf(
      c,
      deps.reads,
    )(async (db) => {
      const device = await deviceByPublicHash(db, c.req.param("publicPageHash") ?? "");
      if (!device) throw new ApiError(404, NOT_FOUND);
      return {
        general: await deviceGeneral(db, device, "public"),
        sensors: await sensorsOfDevice(db, device.id, "public"),
      };
    });
    return reply(c, getPublicDeviceDetails, { device: found });
  });
}
