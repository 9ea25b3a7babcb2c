import type { Context, MiddlewareHandler } from "hono";
import type { AnswerCache } from "../core/answerCache.ts";

/*
 * The public reads' microcache in HTTP terms (server/core/answerCache.ts): a write empties it,
 * and a visitor who asks for a fresh answer (a hard reload sends Cache-Control: no-cache) gets
 * one, so a page reloaded after a payment on another instance never shows the old balance.
 */

/** Empties the cache after every write this instance answers (before the answer leaves). */
export function clearAnswersOnWrite(cache: AnswerCache): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400) cache.clear();
  };
}

/** The cached answer for `key`, or a fresh one when the request asks for it. */
export function cachedAnswer<T>(c: Context, cache: AnswerCache, key: string, load: () => Promise<T>) {
  if (/no-cache|no-store|max-age=0/i.test(c.req.header("cache-control") ?? "")) cache.drop(key);
  return cache.read(key, load);
}
