import { Hono } from "hono";
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";

/** /healthz answers 200 when the database answers, 503 otherwise (for load balancers). */
export function healthRoutes({ db }: Deps) {
  return new Hono().get("/healthz", async (c) => {
    try {
      await db.execute(sql`select 1`);
      return c.json({ status: "ok" });
    } catch {
      return c.json({ status: "unavailable" }, 503);
    }
  });
}
