import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
  }
}

/** Gives every request an id, echoed in X-Request-Id and used in logs. */
export const requestId: MiddlewareHandler = async (c, next) => {
  const id = randomUUID();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
};
