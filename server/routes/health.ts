import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";

const HEALTH = { method: "get", path: "/healthz" } as const;

/** /healthz answers 200 when the database answers, 503 otherwise (for load balancers). */
export function healthRoutes(deps: Deps) {
  return new Hono().get(HEALTH.path, guard(HEALTH, deps), async (c) => {
    try {
      await deps.db.execute(sql`select 1`);
      return c.json({ status: "ok" });
    } catch {
      return c.json({ status: "unavailable" }, 503);
    }
  });
}
