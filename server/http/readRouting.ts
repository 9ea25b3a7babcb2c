import type { MiddlewareHandler, Context } from "hono";
import { setCookie } from "hono/cookie";
import type { ReadRouter } from "../data/readRouter.ts";
import type { Db } from "../db/client.ts";
import { clearsAnswers } from "./answers.ts";
import { cookieOptions } from "./cookies.ts";
import { clientWrote, WROTE_COOKIE } from "./wroteCookie.ts";

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
 * instance it comes back to, for the router's afterWriteSeconds (a cookie). Mounted only when
 * a replica is configured.
 */
export function noteWrites(reads: ReadRouter): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!clearsAnswers(c)) return;
    reads.noteWrite();
    setCookie(c, WROTE_COOKIE, "1", cookieOptions(c, reads.afterWriteSeconds));
  };
}
