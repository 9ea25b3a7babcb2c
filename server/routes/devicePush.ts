import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { sha256 } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import { ingestPush } from "../data/ingest.ts";
import { workTokens } from "../data/ingestWeight.ts";
import { evaluateBatch } from "../flows/alertEvaluation.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { clientGone } from "../http/clientGone.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { countPushes } from "../http/metrics.ts";
import { reply } from "../http/reply.ts";
import { pushReadings } from "../../src/api/readings.ts";

const PUSH_BODY_LIMIT = 256 * 1024;
const PUSH_RETRY_AFTER = "5";
const pushLimit = limitBodyTo(PUSH_BODY_LIMIT, "The push is too large (256 KB at most).");

/** The answer to a device key past its limits (deps.ts PUSH_LIMITS). */
export const tooManyPushes = (seconds: number) =>
  `Too many pushes with this device key. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;

/** Tokens a stored push costs its key beyond its own, by request: its recomputations. */
const extraCost = new WeakMap<Request, number>();

/** The device key of a push, as its Authorization header names it. */
const keyOf = (c: Context) => /^Device\s+(\S+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? null;

/**
 * Takes a place in the key's limits before the body is read (a flood costs no parsing) and
 * gives it back when the push is answered; 429 with Retry-After past them. A key not yet
 * accepted on this instance (an invented one, or a device's first push) is limited by its
 * client address instead, and becomes a key with limits of its own once a push is accepted
 * (core/keyLimiter.ts pushGate): made-up keys cannot refuse a real device.
 */
const perKey = (deps: Deps) =>
  createMiddleware(async (c, next) => {
    const keyHash = sha256(keyOf(c) ?? "");
    const declared = Number(c.req.header("content-length"));
    // A larger body is refused unread (413), so no push costs more than the limit.
    const bytes =
      Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, PUSH_BODY_LIMIT) : PUSH_BODY_LIMIT;
    // Real elapsed time, not the portal's clock (which tests pin): the buckets refill by it.
    const client = clientIp(c, deps.config.trustProxy);
    const taken = deps.pushLimiter.take(keyHash, client, bytes, performance.now());
    if (!taken.ok) {
      c.header("Retry-After", String(taken.retryAfterSeconds));
      throw new ApiError(429, [{ field: null, message: tooManyPushes(taken.retryAfterSeconds) }]);
    }
    try {
      await next();
      if (c.res.status < 300) {
        deps.pushLimiter.confirm(keyHash);
        deps.pushLimiter.charge(keyHash, extraCost.get(c.req.raw) ?? 0, performance.now());
      }
    } finally {
      taken.done();
    }
  });

/** Device data ingestion: devices (and the demo simulator) post readings with their key. */
export function devicePushRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().post(
    pushReadings.path,
    guard(pushReadings, deps),
    countPushes,
    perKey(deps),
    pushLimit,
    async (c) => {
      const push = await inputOf(c, pushReadings);
      try {
        const stored = await ingestPush(
          db,
          keyOf(c),
          push,
          now(),
          { gone: clientGone(c), batch: deps.config.pushBatch },
          evaluateBatch,
        );
        extraCost.set(c.req.raw, workTokens(stored.recomputed));
        // A reading that moved an alarm: its notices go now, not at the next tick.
        if (stored.alarmsMoved) deps.alertWork.kick();
        return reply(c, pushReadings, { accepted: stored.accepted });
      } catch (e) {
        // "Try again in a few seconds", said to the device's HTTP client too.
        if (e instanceof ApiError && (e.status === 429 || e.status === 503))
          c.header("Retry-After", PUSH_RETRY_AFTER);
        throw e;
      }
    },
  );
}
