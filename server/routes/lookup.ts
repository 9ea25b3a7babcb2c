import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { safeEqual } from "../core/crypto.ts";
import { lookupRecord } from "../data/lookup.ts";
import { eventsInWindow, noteEvent, release, reserve } from "../data/rateLimits.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { readsOf } from "../http/readRouting.ts";
import { reply } from "../http/reply.ts";
import { searchOrdersAndQuotes } from "../../src/api/lookup.ts";
import { normalizeContact, normalizeRecordNumber, RECORD_NOT_FOUND } from "../../src/domain/lookup.ts";
import { parseReferrer } from "../../src/domain/publicRecord.ts";

/** Failed lookups a client (an address, an IPv6 /64) may make per 15 minutes; a hit gives its place back. */
export const LOOKUP_MISSES = { max: 10, windowSeconds: 900 };
/**
 * Misses of all clients together per 15 minutes past which the portal is under a guessing
 * attack (a botnet walking contact names): each client's allowance then drops to
 * LOOKUP_MISSES_UNDER_ATTACK. Nothing is ever counted against a record, so nobody can lock a
 * record's real contact out (docs/decisions.md, "Lookup limits").
 */
export const LOOKUP_ATTACK = { key: "lookup-misses", max: 200, windowSeconds: 900 };
export const LOOKUP_MISSES_UNDER_ATTACK = 3;
/** Looked up when the number is malformed, so that miss costs what the others do; no row has id 0. */
const NOTHING = { kind: "order", id: 0 } as const;

/**
 * Quote and order lookup by number and contact name. Every miss (malformed or unknown
 * number, wrong or empty name) answers the same 404 after the same work: one query by id and
 * one constant-time comparison of the normalised names. A right number and name always gets
 * through unless this client itself has used up its misses.
 */
export function lookupRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(searchOrdersAndQuotes.path, guard(searchOrdersAndQuotes, deps), async (c) => {
    const { id, contact } = await inputOf(c, searchOrdersAndQuotes);
    const attacked = (await eventsInWindow(db, LOOKUP_ATTACK, now())) >= LOOKUP_ATTACK.max;
    const max = attacked ? LOOKUP_MISSES_UNDER_ATTACK : LOOKUP_MISSES.max;
    // Counted before the check and given back on success, so parallel guesses cannot all
    // pass the limit before any of them is counted.
    const key = `lookup:${clientIp(c, deps.config.trustProxy)}`;
    const slot = await reserve(db, { key, windowSeconds: LOOKUP_MISSES.windowSeconds, max }, now());
    // "ORD-{n}" / "QUO-{n}" in any case: the same shape as a registration referrer.
    const wanted = parseReferrer(normalizeRecordNumber(id)) ?? NOTHING;
    // The record on the replica when it may serve; the miss counts (writes) on the primary.
    const found = await readsOf(c, deps.reads)((readDb) => lookupRecord(readDb, wanted));
    const sameName = safeEqual(normalizeContact(found?.contactName ?? ""), normalizeContact(contact));
    if (!found || !sameName || normalizeContact(contact) === "") {
      await noteEvent(db, { ...LOOKUP_ATTACK, max: LOOKUP_ATTACK.max * 2 }, now());
      throw new ApiError(404, [{ field: null, message: RECORD_NOT_FOUND }]);
    }
    await release(db, slot);
    return reply(c, searchOrdersAndQuotes, { resourceUri: found.resourceUri });
  });
}
