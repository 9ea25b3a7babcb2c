import type { Context } from "hono";
import type { Config } from "../config.ts";

/** Where emailed links point: the public origin when configured, else the request's own. */
export function linkBase(c: Context, config: Config): string {
  return config.origins.public || config.origins.account || new URL(c.req.url).origin;
}
