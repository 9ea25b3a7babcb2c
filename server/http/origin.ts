import type { Context } from "hono";
import { ApiError } from "../core/errors.ts";

export const CROSS_SITE_REFUSED = "Cross-site request refused.";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Throws a 403 for a state-changing request sent by another site's page. Browsers send Origin on
 * every cross-site POST/PUT/PATCH/DELETE and Sec-Fetch-Site where they support it; a
 * request that carries neither is not from a browser and so cannot ride a cookie.
 * `Origin: null` is what a native form post sends under our no-referrer policy; it passes
 * only when the browser itself says the request came from this very origin.
 */
export function crossSiteCheck(
  allowed: (origin: string, self: string) => boolean,
  exempt: (path: string) => boolean = () => false,
): (c: Context) => void {
  return (c) => {
    if (!UNSAFE.has(c.req.method) || exempt(c.req.path)) return;
    const origin = c.req.header("origin");
    const self = new URL(c.req.url).origin;
    const site = c.req.header("sec-fetch-site");
    const refused =
      origin === "null" ? site !== "same-origin" : origin ? !allowed(origin, self) : site === "cross-site";
    if (refused) throw new ApiError(403, CROSS_SITE_REFUSED);
  };
}

/**
 * Throws a 403 for a GET that writes a row of the audit trail (the trail's export, a device's
 * data download) when another site's page started it. The session cookie is SameSite=Lax, so a
 * link on any page would carry it and record an export in the signed-in person's name, with
 * filters of that page's choosing. Browsers say so in Sec-Fetch-Site; the portal's own pages
 * and links, bookmarks and typed addresses are "same-origin" or "none", and a client that is
 * not a browser sends nothing and holds no cookie of a person's browser.
 */
export function refuseCrossSiteRead(c: Context): void {
  if (c.req.header("sec-fetch-site") === "cross-site") throw new ApiError(403, CROSS_SITE_REFUSED);
}
