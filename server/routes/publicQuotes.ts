import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { reserve } from "../data/rateLimits.ts";
import { isQuoteToken, quoteByPublicId, quoteDetails } from "../data/quotes.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { readsOf } from "../http/readRouting.ts";
import { reply } from "../http/reply.ts";
import { viewerOf } from "../http/viewer.ts";
import { getPublicQuote } from "../../src/api/quotes.ts";
import { quoteNumber } from "../../src/domain/quote.ts";
import { appPath } from "../../src/domain/appPaths.ts";

/**
 * Reads by number (QUO-{n}, sequential) and unknown tokens a client (an address, an IPv6 /64)
 * may make per 15 minutes, as the lookup counts its misses: a found token link costs nothing,
 * so walking the numbers is slow while a shared link opens as often as people like.
 */
export const QUOTE_NUMBER_READS = { max: 60, windowSeconds: 900 };

/**
 * The public quote page's read: QUO-{n} shows the summary card only (the number is
 * sequential); the token link shows the full quote and lets a guest pay it.
 */
export function publicQuoteRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(getPublicQuote.path, guard(getPublicQuote, deps), async (c) => {
    const id = c.req.param("id") ?? "";
    const count = () =>
      reserve(db, { key: `quote-read:${clientIp(c, deps.config.trustProxy)}`, ...QUOTE_NUMBER_READS }, now());
    // A number is counted before it is read, so parallel reads cannot all pass the limit.
    if (!isQuoteToken(id)) await count();
    // The quote on the replica when it may serve; the read limit and the session on the primary.
    const read = readsOf(c, deps.reads);
    const found = await read((readDb) => quoteByPublicId(readDb, id));
    if (!found) {
      if (isQuoteToken(id)) await count();
      throw new ApiError(404, NOT_FOUND);
    }
    const { row } = found.record;
    const viewer = await viewerOf(c, deps, row, appPath("quoteDetails", { number: quoteNumber(row.id) }));
    const details = await read((readDb) =>
      quoteDetails(readDb, found.record, { full: found.full, now: now(), memberPath: viewer.memberPath }),
    );
    return reply(c, getPublicQuote, { quoteDetails: { ...details, ...viewer } });
  });
}
