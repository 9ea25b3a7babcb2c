import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { quoteByPublicId, quoteDetails } from "../data/quotes.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { reply } from "../http/reply.ts";
import { memberPath } from "../http/viewer.ts";
import { getPublicQuote } from "../../src/api/quotes.ts";
import { quoteNumber } from "../../src/domain/quote.ts";

/**
 * The public quote page's read: QUO-{n} shows the summary card only (the number is
 * sequential); the token link shows the full quote and lets a guest pay it.
 */
export function publicQuoteRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(getPublicQuote.path, guard(getPublicQuote, deps), async (c) => {
    const found = await quoteByPublicId(db, c.req.param("id") ?? "");
    if (!found) throw new ApiError(404, NOT_FOUND);
    const { row } = found.record;
    const member = await memberPath(c, deps, row, `/s/quotes/details/${quoteNumber(row.id)}`);
    const details = await quoteDetails(db, found.record, {
      full: found.full,
      now: now(),
      memberPath: member,
    });
    return reply(c, getPublicQuote, { quoteDetails: details });
  });
}
