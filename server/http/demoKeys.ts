import type { MiddlewareHandler } from "hono";
import { ApiError } from "../core/errors.ts";
import { BAD_DEVICE_KEY } from "../data/ingest.ts";

/**
 * Refuses a push signed with a key `refused` names (outside demo mode: a demo device's key)
 * like a wrong key: demo keys come from the MAC by a published formula, and a database seeded
 * once in demo mode keeps their hashes after the server is restarted for real use.
 */
export function refuseDeviceKeys(refused: (key: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const key = /^Device\s+(\S+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    if (key && refused(key)) throw new ApiError(401, BAD_DEVICE_KEY);
    await next();
  };
}
