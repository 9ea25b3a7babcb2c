import { Hono } from "hono";
import type { AppDeps } from "../app.ts";

/** The signed-in person's live sessions: list them and sign out everywhere else. */
export function accountSessionRoutes(_deps: AppDeps) {
  return new Hono();
}
