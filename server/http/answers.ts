import type { Context, MiddlewareHandler } from "hono";
import type { AnswerCache } from "../core/answerCache.ts";

/*
 * The public reads' microcache in HTTP terms (server/core/answerCache.ts): a write empties it,
 * and a visitor who asks for a fresh answer (a hard reload sends Cache-Control: no-cache) gets
 * one, so a page reloaded after a payment on another instance never shows the old balance.
 */

/** A device's readings: they change only live values, which may lag a second (the live channel sends them). */
const PUSH_PATH = "/api/v1/device-data/push";
/** A fresh answer asked for is at most this old: a reload loop cannot make every request a read. */
const FRESH_MS = 100;

/**
 * Empties the cache after every write this instance answers (before the answer leaves),
 * whatever its status: a write may commit before a later step fails. Device pushes, many a
 * second in a fleet, do not.
 */
export function clearAnswersOnWrite(cache: AnswerCache): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.path !== PUSH_PATH) cache.clear();
  };
}

/** The cached answer for `key`, or one at most FRESH_MS old when the request asks for a fresh one. */
export function cachedAnswer<T>(c: Context, cache: AnswerCache, key: string, load: () => Promise<T>) {
  const fresh = /no-cache|no-store|max-age=0/i.test(c.req.header("cache-control") ?? "");
  return cache.read(key, load, fresh ? FRESH_MS : undefined);
}
