import type { MiddlewareHandler } from "hono";
import { isDemoDeviceKey } from "../seed/devices.ts";
import { BAD_DEVICE_KEY } from "../services/ingest.ts";
import { ApiError } from "./errors.ts";

/**
 * Outside demo mode, refuses a push signed with a demo device's key like a wrong key: those
 * keys come from the MAC by a published formula, and a database seeded once in demo mode
 * keeps their hashes after the server is restarted for real use.
 */
export const refuseDemoDeviceKeys: MiddlewareHandler = async (c, next) => {
  const key = /^Device\s+(\S+)$/.exec(c.req.header("authorization") ?? "")?.[1];
  if (key && isDemoDeviceKey(key)) throw new ApiError(401, BAD_DEVICE_KEY);
  await next();
};
