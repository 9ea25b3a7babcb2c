import type { Context } from "hono";

/**
 * Set for a few seconds on the browser that a write was answered to (a guest payment, a
 * settings save): while it comes back with it, on any instance, its public reads skip the
 * replica and the answer cache, so it never sees the page from before its own write.
 */
export const WROTE_COOKIE = "portal_wrote";

/** True when this client wrote within the last few seconds (its cookie says so). */
export function clientWrote(c: Context): boolean {
  const header = c.req.header("cookie");
  return !!header && header.split(";").some((pair) => pair.trim() === `${WROTE_COOKIE}=1`);
}
