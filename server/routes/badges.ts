import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { deviceBadgeFacts, reportBadgeFacts } from "../data/badges.ts";
import { deviceByPublicHash } from "../data/devices.ts";
import { reportByPublicHash } from "../data/reports.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { deviceBadge, reportBadge } from "../../src/api/visitors.ts";
import { badgeSvg, linkState } from "../../src/domain/linkBadge.ts";

/**
 * A badge may be kept this long by browsers and proxies (a wiki's image cache): a state change
 * shows within a minute. The server's own microcache (ANSWER_CACHE_MS, a second by default)
 * shares one read among a crowd; device pushes do not empty it, so it bounds the lag too.
 */
const BADGE_HEADERS = {
  "content-type": "image/svg+xml; charset=utf-8",
  "cache-control": "public, max-age=60",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  "x-content-type-options": "nosniff",
};

/**
 * The status badges of public report and device links (token access: the link's hash). A
 * deleted, regenerated, paused or expired link answers 404 like the public pages' reads.
 */
export function badgeRoutes(deps: Deps) {
  const { db } = deps;
  const send = (c: Context, svg: string) => c.body(svg, 200, BADGE_HEADERS);
  return new Hono()
    .get(reportBadge.path, guard(reportBadge, deps), async (c) => {
      const hash = c.req.param("hash") ?? "";
      const svg = await deps.answers.read(`badge-report:${hash}`, async () => {
        const report = await reportByPublicHash(db, hash, deps.now());
        if (!report) return null;
        const facts = await reportBadgeFacts(db, report.id);
        return badgeSvg(report.name, linkState(facts.openAlarms, facts.devices, deps.now()));
      });
      if (svg === null) throw new ApiError(404, NOT_FOUND);
      return send(c, svg);
    })
    .get(deviceBadge.path, guard(deviceBadge, deps), async (c) => {
      const hash = c.req.param("hash") ?? "";
      const svg = await deps.answers.read(`badge-device:${hash}`, async () => {
        const device = await deviceByPublicHash(db, hash);
        if (!device) return null;
        const facts = await deviceBadgeFacts(db, device);
        return badgeSvg(device.name, linkState(facts.openAlarms, facts.devices, deps.now()));
      });
      if (svg === null) throw new ApiError(404, NOT_FOUND);
      return send(c, svg);
    });
}
