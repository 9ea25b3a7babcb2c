import type { Context, MiddlewareHandler } from "hono";
import type { AnswerCache } from "../core/answerCache.ts";
import { sha256 } from "../core/crypto.ts";
import { requestWrote } from "../db/requestWrites.ts";
import { sessionToken } from "./cookies.ts";
import { sendSerialized, type Serialized } from "./reply.ts";
import { clientWrote } from "./wroteCookie.ts";

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
 * True when an answered request must empty the cache (before the answer leaves): a request
 * that wrote rows some answer shows (db/requestWrites.ts: its statements say so, not its
 * method and status, so an anonymous no-op POST empties nothing), unless it was refused
 * (4xx: checks, limits and validation come before any write, and a write that fails later
 * rolls back), so a flood of refused requests does not empty it for everyone. A 5xx after a
 * write empties it: the write may commit before a later step fails. Device pushes, many a
 * second in a fleet, do not. `wrote` is asked of the request's context unless given (the
 * gate, which made that context, asks its own flag).
 */
export function clearsAnswers(c: Context, wrote = requestWrote()): boolean {
  const refused = c.res.status >= 400 && c.res.status < 500;
  return wrote && c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.path !== PUSH_PATH && !refused;
}

/**
 * How old a cached answer may be for this request: FRESH_MS when it asks for a fresh one, or
 * when its client wrote a moment ago (its write may have been answered by another instance).
 */
const maxAgeFor = (c: Context) =>
  /no-cache|no-store|max-age=0/i.test(c.req.header("cache-control") ?? "") || clientWrote(c)
    ? FRESH_MS
    : undefined;

/** The cached answer for `key`, or one at most FRESH_MS old when the request asks for a fresh one. */
export function cachedAnswer<T>(c: Context, cache: AnswerCache, key: string, load: () => Promise<T>) {
  return cache.read(key, load, maxAgeFor(c));
}

/** A check waits this long, at most, for the same session's answer another check is making. */
const SHARED_WAIT_MS = 1000;

/** Settles when `p` does or after `ms`, whichever is first. */
async function atMost(p: Promise<void>, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A session's answer lives between half and all of the cache's time. */
const SESSION_SPREAD = 0.5;

/**
 * The session check (GET /api/v1/session), reused per session for the cache's time: the
 * signed-in app asks it on every page it opens, and it costs the session's query and its
 * subscriptions'. `reuse` answers from an answer this same session got (after its access
 * check) within that time and otherwise lets the route run; `keep` stores the route's
 * answer. A sign-out, a settings save or any write on this instance empties the cache; on
 * another instance a revoked session reads its own session for at most ANSWER_CACHE_MS more.
 * Checks of one session that arrive while its answer is being made wait for that one (at
 * most SHARED_WAIT_MS) and take it (several tabs opened at once, a kiosk wall on one
 * account): one database read, not one each. If that one is refused, not kept or slow, each
 * makes its own; a check asking for a fresh answer never waits for one begun before it.
 * Nothing else a session calls is reused.
 */
export function sessionAnswers(cache: AnswerCache) {
  const keyOf = (c: Context) => {
    const token = sessionToken(c);
    return token ? `session:${sha256(token)}` : null;
  };
  // The cache's generation when each request began: an answer made across a write is not kept.
  const began = new WeakMap<Request, number>();
  // The checks being made now, by session: they end (settle) after the answer is kept.
  const making = new Map<string, Promise<void>>();
  const reuse: MiddlewareHandler = async (c, next) => {
    const key = keyOf(c);
    if (!key) return next();
    const maxAge = maxAgeFor(c);
    let hit = cache.peek<Serialized>(key, maxAge);
    // An answer begun before a request for a fresh one may be older than it asks for.
    const running = hit || maxAge !== undefined ? undefined : making.get(key);
    if (running) {
      await atMost(running, SHARED_WAIT_MS);
      hit = cache.peek<Serialized>(key);
    }
    if (hit) return sendSerialized(c, await hit, { gzip: false });
    began.set(c.req.raw, cache.generation);
    // Nothing to wait for when the cache keeps nothing, or after a wait that found nothing.
    if (running || cache.ttlMs <= 0) return next();
    const { promise, resolve } = Promise.withResolvers<void>();
    making.set(key, promise);
    try {
      return await next();
    } finally {
      if (making.get(key) === promise) making.delete(key);
      resolve();
    }
  };
  const keep = (c: Context, answer: Serialized) => {
    const key = keyOf(c);
    // Spread: people who opened their pages in the same second are not all asked again at once.
    if (key) cache.put(key, answer, SESSION_SPREAD, began.get(c.req.raw) ?? -1);
    return answer;
  };
  return { reuse, keep };
}
