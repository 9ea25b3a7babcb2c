import { Hono, type Context } from "hono";
import { Registry } from "prom-client";
import { safeEqual } from "../core/crypto.ts";
import { NOT_FOUND } from "../core/errors.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { errorResponse } from "../http/errors.ts";
import { isLocalRequest } from "../http/local.ts";
import { appRegistry, metricsText, type PoolFigures } from "../http/metrics.ts";
import { readRegistry } from "../http/readMetrics.ts";

const METRICS = { method: "get", path: "/metrics" } as const;

/**
 * Who may scrape: this computer (a loopback socket and Host, and no proxy header, since a
 * proxy on this computer relays everyone), or anyone with `Authorization: Bearer
 * <METRICS_TOKEN>` when that is set. Anyone else gets the 404 of a path that does not exist.
 */
function mayScrape(c: Context, token: string | undefined): boolean {
  if (isLocalRequest(c)) return true;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  return !!token && !!sent && safeEqual(sent, token);
}

/** node-postgres's pool behind the Drizzle handle; null on PGlite, which has none. */
function poolOf(db: Deps["db"]): PoolFigures | null {
  const client = (db as unknown as { $client?: Partial<PoolFigures> }).$client;
  return typeof client?.totalCount === "number" ? (client as PoolFigures) : null;
}

/** GET /metrics: Prometheus text (docs/operations.md lists the series and what to watch). */
export function metricsRoutes(deps: Deps) {
  const own = Registry.merge([
    appRegistry({
      liveClients: () => deps.live.size(),
      liveRecheckErrors: () => deps.live.recheckErrors(),
      pool: () => poolOf(deps.db),
    }),
    readRegistry(deps.reads),
  ]);
  return new Hono().get(METRICS.path, guard(METRICS, deps), async (c) => {
    if (!mayScrape(c, deps.config.metricsToken))
      return errorResponse(c, 404, [{ field: null, message: NOT_FOUND }]);
    const { text, contentType } = await metricsText(own);
    return c.body(text, 200, { "content-type": contentType, "cache-control": "no-store" });
  });
}
