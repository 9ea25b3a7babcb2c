// Walks audit chains and names every row that does not fit (`npm run audit -- verify`, and the
// Administrators' button for their own subscription). Not a route file.
import type { Db } from "../db/client.ts";
import { ChainCheck, type AnchorSink, type AuditAnchor, type ChainFault } from "../core/auditChain.ts";
import { chainHeads, chainPage, repeatedRows } from "../data/audit.ts";
import { sealAll, sealChain, unsealedRows } from "../data/auditSeal.ts";
import { auditFloorSeconds } from "./auditRetention.ts";

const PAGE = 5000;
/** A row may have waited this long to be sealed (an instance down for a while): its anchor is that much younger. */
const SEAL_DELAY_MARGIN_MS = 30 * 86_400_000;

/**
 * The newest moment (ISO) a row retention removed from the chain can have been sealed: the
 * least it keeps (auditFloorSeconds) ago, plus a margin for late sealing.
 */
function retentionFloor(subscriptionId: number, now: Date): string {
  return new Date(
    now.getTime() - auditFloorSeconds(subscriptionId) * 1000 + SEAL_DELAY_MARGIN_MS,
  ).toISOString();
}

export interface VerifyResult {
  chains: number;
  rows: number;
  faults: ChainFault[];
  /** When the newest head kept outside the database that the chains were compared with was sealed; null without one. */
  anchoredAt: string | null;
}

/**
 * Checks every chain, or one subscription's; reads a page of rows at a time. What is committed
 * is sealed first, so the walk covers it; a row the sealer would not chain (one without a nonce
 * whose content does not fit the hash it was written with) is named by its id, and a row that
 * repeats another (a copy, which fits its hashes) by its seq. `anchors`: heads kept outside the
 * database (services/auditAnchors.ts), which name a chain cut back, chained again or gone;
 * `sink` takes the heads of what this check seals first.
 */
export async function verifyAudit(
  db: Db,
  opts: {
    subscriptionId?: number | undefined;
    key?: string | undefined;
    anchors?: AuditAnchor[];
    sink?: AnchorSink;
    /** The check's clock, for what retention may have removed by now. */
    now?: Date;
  } = {},
): Promise<VerifyResult> {
  const result: VerifyResult = { chains: 0, rows: 0, faults: [], anchoredAt: null };
  if (opts.subscriptionId === undefined) await sealAll(db, opts.key, true, opts.sink);
  else await sealChain(db, opts.subscriptionId, opts.key, true, opts.sink);
  const anchored = new Map<number, AuditAnchor[]>();
  for (const a of opts.anchors ?? [])
    if (opts.subscriptionId === undefined || a.subscriptionId === opts.subscriptionId) {
      anchored.set(a.subscriptionId, [...(anchored.get(a.subscriptionId) ?? []), a]);
      if (!result.anchoredAt || Date.parse(a.at) > Date.parse(result.anchoredAt)) result.anchoredAt = a.at;
    }
  for (const { subscriptionId, head, start } of await chainHeads(db, opts.subscriptionId)) {
    const check = new ChainCheck(
      subscriptionId,
      opts.key,
      start,
      anchored.get(subscriptionId),
      retentionFloor(subscriptionId, opts.now ?? new Date()),
    );
    anchored.delete(subscriptionId);
    // From the lowest seq there is: a row slipped in at 0 or below is walked (and named) too.
    for (let after = Number.MIN_SAFE_INTEGER; ;) {
      const page = await chainPage(db, subscriptionId, after, PAGE);
      for (const row of page) check.add(row);
      if (page.length < PAGE) break;
      after = page.at(-1)!.seq;
    }
    result.chains++;
    result.rows += check.rows;
    result.faults.push(...check.end(head));
    for (const { seq, first } of await repeatedRows(db, subscriptionId))
      result.faults.push({
        subscriptionId,
        seq,
        why: `it and row ${first} are the same row word for word: one of them is a copy added outside the portal`,
      });
  }
  // An anchored chain with neither rows nor head left: removed whole.
  for (const [subscriptionId, anchors] of anchored) {
    const last = anchors.reduce((a, b) => (b.seq > a.seq ? b : a));
    result.faults.push({
      subscriptionId,
      seq: last.seq,
      why: `the whole chain is gone, though rows up to ${last.seq} had been sealed by ${last.at} (anchored outside the database)`,
    });
  }
  // Rows written after the seal above are waiting their turn, not faults, when their content fits.
  for (const row of await unsealedRows(db, opts.subscriptionId, opts.key))
    if (!row.fits)
      result.faults.push({
        subscriptionId: row.subscriptionId,
        seq: 0,
        why: `a row not yet chained (id ${row.id}) does not match the hash it was written with: added or edited outside the portal`,
      });
    else if (row.late)
      result.faults.push({
        subscriptionId: row.subscriptionId,
        seq: 0,
        why: `a row not chained (id ${row.id}), written ${row.at.toISOString()}, is older than the chain's newest row by more than an hour: put in or back outside the portal`,
      });
  return result;
}
