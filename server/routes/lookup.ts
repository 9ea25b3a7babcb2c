import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { safeEqual } from "../core/crypto.ts";
import { lookupRecord } from "../data/lookup.ts";
import { release, reserve, runCounted } from "../data/rateLimits.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { searchOrdersAndQuotes } from "../../src/api/lookup.ts";
import { normalizeContact, normalizeRecordNumber, RECORD_NOT_FOUND } from "../../src/domain/lookup.ts";
import { parseReferrer } from "../../src/domain/publicRecord.ts";

/** Failed lookups a client may make per 15 minutes (a found record gives its place back). */
const MISSES = { max: 10, windowSeconds: 900 };
/**
 * Failed lookups of one number per 15 minutes, from all clients together (sign-in's limit per
 * account): many addresses (a botnet, the 65536 /64s of one /48) cannot walk the contact
 * names of a record. Unknown numbers are counted the same way, so a 429 tells nothing.
 */
const RECORD_MISSES = { max: 20, windowSeconds: 900 };
/** Looked up when the number is malformed, so that miss costs what the others do; no row has id 0. */
const NOTHING = { kind: "order", id: 0 } as const;

/**
 * Quote and order lookup by number and contact name. Every miss (malformed or unknown
 * number, wrong or empty name) answers the same 404 after the same work: one query by id and
 * one constant-time comparison of the normalised names.
 */
export function lookupRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(searchOrdersAndQuotes.path, guard(searchOrdersAndQuotes, deps), async (c) => {
    const { id, contact } = await inputOf(c, searchOrdersAndQuotes);
    // Counted before the check and given back on success, so parallel guesses cannot all
    // pass the limit before any of them is counted.
    const slot = await reserve(
      db,
      { key: `lookup:${clientIp(c, deps.config.trustProxy)}`, ...MISSES },
      now(),
    );
    // "ORD-{n}" / "QUO-{n}" in any case: the same shape as a registration referrer.
    const wanted = parseReferrer(normalizeRecordNumber(id)) ?? NOTHING;
    // A guess the record's limit refuses was never checked: the client's place goes back.
    const recordSlot = await runCounted(db, slot, () =>
      reserve(db, { key: `lookup-record:${wanted.kind}:${wanted.id}`, ...RECORD_MISSES }, now()),
    );
    const found = await lookupRecord(db, wanted);
    const sameName = safeEqual(normalizeContact(found?.contactName ?? ""), normalizeContact(contact));
    if (!found || !sameName || normalizeContact(contact) === "")
      throw new ApiError(404, [{ field: null, message: RECORD_NOT_FOUND }]);
    await release(db, slot);
    await release(db, recordSlot);
    return reply(c, searchOrdersAndQuotes, { resourceUri: found.resourceUri });
  });
}
