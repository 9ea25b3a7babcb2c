import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { ingestPush } from "../data/ingest.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { clientGone } from "../http/clientGone.ts";
import { inputOf } from "../http/input.ts";
import { countPushes } from "../http/metrics.ts";
import { reply } from "../http/reply.ts";
import { pushReadings } from "../../src/api/readings.ts";

const PUSH_BODY_LIMIT = 256 * 1024;
const PUSH_RETRY_AFTER = "5";
const pushLimit = limitBodyTo(PUSH_BODY_LIMIT, "The push is too large (256 KB at most).");

/** Device data ingestion: devices (and the demo simulator) post readings with their key. */
export function devicePushRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().post(pushReadings.path, guard(pushReadings, deps), countPushes, pushLimit, async (c) => {
    const key = /^Device\s+(\S+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? null;
    const push = await inputOf(c, pushReadings);
    try {
      return reply(c, pushReadings, await ingestPush(db, key, push, now(), { gone: clientGone(c) }));
    } catch (e) {
      // "Try again in a few seconds", said to the device's HTTP client too.
      if (e instanceof ApiError && (e.status === 429 || e.status === 503))
        c.header("Retry-After", PUSH_RETRY_AFTER);
      throw e;
    }
  });
}
