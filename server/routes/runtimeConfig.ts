import { Hono } from "hono";
import { runtimeConfig } from "../config.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";

const RUNTIME_CONFIG = { method: "get", path: "/runtime-config.json" } as const;

/** Where the browser finds the API, web, account and websocket hosts (the pages also carry it inline). */
export function runtimeConfigRoutes(deps: Deps) {
  const config = runtimeConfig(deps.config);
  return new Hono().get(RUNTIME_CONFIG.path, guard(RUNTIME_CONFIG, deps), (c) => c.json(config));
}
