import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { release, reserve } from "../data/rateLimits.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { reply } from "../http/reply.ts";
import { getTrackingDetails } from "../../src/api/shipments.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";

export const TRACKING_NUMBER_RULE = "A tracking number is 6 to 40 letters and digits.";
const TRACKING_NUMBER = /^[A-Za-z0-9]{6,40}$/;
/** Unknown numbers a client may ask about per 15 minutes: enough for a person, too few to enumerate. */
const MISSES = { max: 30, windowSeconds: 900 };

/**
 * The Shipment Details modal's carrier activity (account host, public). Each unknown number
 * counts against the client, so tracking numbers (which reveal towns and who signed) cannot
 * be walked cheaply; a number that is found gives its place back.
 */
export function trackingRoutes(deps: Deps) {
  const { db, now, carriers } = deps;
  return new Hono().get(getTrackingDetails.path, guard(getTrackingDetails, deps), async (c) => {
    const trackingNumber = c.req.param("trackingNumber") ?? "";
    if (!TRACKING_NUMBER.test(trackingNumber))
      throw new ApiError(400, [{ field: "trackingNumber", message: TRACKING_NUMBER_RULE }]);
    const slot = await reserve(
      db,
      { key: `tracking:${clientIp(c, deps.config.trustProxy)}`, ...MISSES },
      now(),
    );
    const tracking = await carriers.tracking(trackingNumber);
    if (!tracking) throw new ApiError(404, NOT_FOUND);
    await release(db, slot);
    // The carrier's rows carry no zone of their own: dates and times are UTC.
    const activity = tracking.activity.map((a) => {
      const at = epochSeconds(a.at.getTime() / 1000);
      return {
        at,
        locationDescription: a.location,
        date: formatDate(at, "UTC"),
        time: formatTime(at, "UTC"),
        description: a.description,
        signedForByName: a.signedForByName,
      };
    });
    return reply(c, getTrackingDetails, { trackingDetails: { method: tracking.method, activity } });
  });
}
