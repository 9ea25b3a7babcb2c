// The audit trail's sealer (docs/decisions.md, "Audit trail"): rows are written unsealed in
// their change's transaction; this chains them, once committed, in the order it finds them.
// One sealer at a time per chain (the head's row lock); every instance runs one.
import { sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import { contentHash, GENESIS, linkHash, rowHash, type AnchorSink } from "../core/auditChain.ts";
import { auditRowOf } from "./audit.ts";

const BATCH = 1000;
/**
 * A row is written moments before it is sealed, so it is never much older than the chain's
 * newest row: the longest transaction, far under an hour. One older than that was put in (or
 * back, from a backup, after retention removed it) outside the portal: it is not chained, and
 * the check names it (issue 37's attack review of the anchors).
 */
export const LATE_MS = 3_600_000;

type Unsealed = Parameters<typeof auditRowOf>[0] & { id: string | number; content_hash: string | null };
/**
 * The hash a row is sealed with after `prev`, or null when it is left unsealed: only a row
 * whose content still fits the hash it was written with (under AUDIT_KEY, one the portal wrote)
 * is chained, so a row slipped in with a made-up hash never gets a place in the chain, nor in
 * the viewer and the export, which read by seq. A row with a nonce is linked by its content
 * hash; an older one (written before nonces, sealed during an upgrade) hashes its content as
 * it always did.
 */
function linkOf(raw: Unsealed, prev: string, seq: number, key: string | undefined) {
  const row = auditRowOf({ ...raw, seq: 0 });
  if (!raw.content_hash || raw.content_hash !== contentHash(row, key)) return null;
  return row.nonce ? linkHash(prev, seq, raw.content_hash, key) : rowHash(prev, { ...row, seq }, key);
}

/**
 * Chains the committed unsealed rows of one subscription: each takes the next seq, the head's
 * hash as the hash before it, and its own hash; the head moves on, all in one transaction.
 * `wait`: a reader that must see its own rows waits for a sealer at work; the background sweep
 * skips a chain another instance holds. Returns how many rows were chained, or null when skipped.
 * A row whose content no longer fits the hash it was written with is left out, and stays
 * unsealed for the verifier to name. Once committed, the new head goes to `anchors` (kept
 * outside the database, services/auditAnchors.ts).
 */
export async function sealChain(
  db: Db,
  subscriptionId: number,
  key: string | undefined,
  wait: boolean,
  anchors?: AnchorSink,
) {
  const done = await inTransaction(db, async (tx) => {
    const head = await takeHead(tx, subscriptionId, wait);
    if (!head) return null;
    let { seq, hash } = head;
    let sealed = 0;
    let newest = seq > 0 ? await rowTime(tx, subscriptionId, seq) : null;
    for (let afterId = Number.MIN_SAFE_INTEGER; ;) {
      const batch = await rows<Unsealed>(
        tx,
        sql`select * from audit_log where subscription_id = ${subscriptionId} and seq is null and id > ${afterId}
            order by id limit ${BATCH}`,
      );
      const chained: { id: number; seq: number; prev: string; hash: string }[] = [];
      for (const raw of batch) {
        const at = new Date(raw.at).getTime();
        if (newest !== null && at < newest - LATE_MS) continue;
        const link = linkOf(raw, hash, seq + 1, key);
        if (!link) continue;
        newest = Math.max(newest ?? at, at);
        const next = { id: Number(raw.id), seq: seq + 1, prev: hash, hash: link };
        chained.push(next);
        ({ seq, hash } = next);
      }
      if (chained.length)
        await tx.execute(
          sql`update audit_log l set seq = v.seq, prev_hash = v.prev, hash = v.hash
              from jsonb_to_recordset(${JSON.stringify(chained)}::jsonb) as v(id bigint, seq bigint, prev text, hash text)
              where l.id = v.id`,
        );
      sealed += chained.length;
      if (batch.length < BATCH) break;
      afterId = Number(batch.at(-1)!.id);
    }
    if (sealed)
      await tx.execute(
        sql`update audit_heads set seq = ${seq}, hash = ${hash} where subscription_id = ${subscriptionId}`,
      );
    return { sealed, seq, hash, firstSeq: head.firstSeq, from: { seq: head.seq, hash: head.hash } };
  });
  if (!done) return null;
  if (done.sealed && anchors)
    anchors.note(
      {
        subscriptionId,
        seq: done.seq,
        hash: done.hash,
        firstSeq: done.firstSeq,
        at: new Date().toISOString(),
      },
      done.from,
    );
  return done.sealed;
}

/** When the row at `seq` of a chain was written (ms), or null when it is not there. */
async function rowTime(tx: Db, subscriptionId: number, seq: number) {
  const [row] = await rows<{ at: Date | string }>(
    tx,
    sql`select at from audit_log where subscription_id = ${subscriptionId} and seq = ${seq}`,
  );
  return row ? new Date(row.at).getTime() : null;
}

/** The chain's head, locked (made at the chain's first row); null when another sealer has it and we do not wait. */
async function takeHead(tx: Db, subscriptionId: number, wait: boolean) {
  const lock = wait ? sql`for update` : sql`for update skip locked`;
  const read = () =>
    rows<{ seq: string | number; hash: string; first_seq: string | number }>(
      tx,
      sql`select seq, hash, first_seq from audit_heads where subscription_id = ${subscriptionId} ${lock}`,
    );
  let [head] = await read();
  if (!head) {
    // Absent, or held by another sealer (SKIP LOCKED hides both): a new head is ours, locked.
    const made = await rows<{ seq: string | number; hash: string; first_seq: string | number }>(
      tx,
      sql`insert into audit_heads (subscription_id, seq, hash) values (${subscriptionId}, 0, ${GENESIS})
          on conflict (subscription_id) do nothing returning seq, hash, first_seq`,
    );
    [head] = made.length || !wait ? made : await read();
  }
  return head ? { seq: Number(head.seq), hash: head.hash, firstSeq: Number(head.first_seq) } : null;
}

/** The chains with rows waiting to be sealed. */
export async function unsealedChains(db: Db): Promise<number[]> {
  const found = await rows<{ subscription_id: number }>(
    db,
    sql`select distinct subscription_id from audit_log where seq is null`,
  );
  return found.map((r) => Number(r.subscription_id));
}

/** Seals every chain with waiting rows (the background sweep; a chain another instance holds is skipped). */
export async function sealAll(
  db: Db,
  key: string | undefined,
  wait = false,
  anchors?: AnchorSink,
): Promise<number> {
  let sealed = 0;
  for (const subscriptionId of await unsealedChains(db))
    sealed += (await sealChain(db, subscriptionId, key, wait, anchors)) ?? 0;
  return sealed;
}

/**
 * The rows still unsealed, with whether their content fits the hash they were written with, and
 * whether one is older than its chain's newest row by more than LATE_MS (never chained).
 */
export async function unsealedRows(db: Db, subscriptionId: number | undefined, key: string | undefined) {
  const found = await rows<Unsealed & { late: boolean | null }>(
    db,
    sql`select l.*, l.at < (select n.at from audit_heads h join audit_log n
                             on n.subscription_id = h.subscription_id and n.seq = h.seq
                             where h.subscription_id = l.subscription_id) - ${`${LATE_MS / 1000} seconds`}::interval as late
        from audit_log l where l.seq is null
        ${subscriptionId === undefined ? sql`` : sql`and l.subscription_id = ${subscriptionId}`} order by l.id`,
  );
  return found.map((raw) => ({
    id: Number(raw.id),
    subscriptionId: Number(raw.subscription_id),
    at: new Date(raw.at),
    fits: raw.content_hash === contentHash(auditRowOf({ ...raw, seq: 0 }), key),
    late: raw.late === true,
  }));
}
