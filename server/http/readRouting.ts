import type { MiddlewareHandler, Context } from "hono";
import { setCookie } from "hono/cookie";
import type { ReadRouter } from "../data/readRouter.ts";
import { sharedSecret } from "../data/serverSecrets.ts";
import type { Db } from "../db/client.ts";
import { clearsAnswers } from "./answers.ts";
import { cookieOptions } from "./cookies.ts";
import {
  clientWrote,
  WROTE_COOKIE,
  WROTE_SECRET,
  wroteCookieOf,
  wroteValid,
  wroteValue,
} from "./wroteCookie.ts";

/**
 * The public reads of one request, through the read router: the replica when it may serve,
 * the primary when this client wrote a moment ago. Only reads go through here; the request's
 * writes (rate limits, view counts) and its session check use deps.db, the primary.
 */
export function readsOf(c: Context, reads: ReadRouter) {
  const afterWrite = clientWrote(c);
  return <T>(work: (db: Db) => Promise<T>) => reads.read(work, { afterWrite });
}

/**
 * After every write this instance answers (the writes that empty the answer cache): this
 * instance reads the primary until its replica holds the write, and the client, on whichever
 * instance it comes back to, for the router's afterWriteSeconds (a signed cookie, checked
 * here on the way in). Mounted only when a replica is configured. Without the shared secret
 * (the database away) a cookie counts as absent and none is set.
 */
export function noteWrites(reads: ReadRouter, db: Db): MiddlewareHandler {
  let secret: Promise<string | null> | null = null;
  const secretOf = () =>
    (secret ??= sharedSecret(db, WROTE_SECRET).catch(() => {
      secret = null;
      return null;
    }));
  const seconds = reads.afterWriteSeconds;
  return async (c, next) => {
    const sent = wroteCookieOf(c);
    if (sent) {
      const key = await secretOf();
      if (key && wroteValid(sent, key, Math.floor(Date.now() / 1000), seconds)) c.set("clientWrote", true);
    }
    await next();
    if (!clearsAnswers(c)) return;
    reads.noteWrite();
    const key = await secretOf();
    if (key)
      setCookie(
        c,
        WROTE_COOKIE,
        wroteValue(key, Math.floor(Date.now() / 1000), seconds),
        cookieOptions(c, seconds),
      );
  };
}
