// The audit trail's rows (docs/decisions.md, "Audit trail"): written inside the transaction of
// the change they record, chained by the sealer, read by the viewer and the export, walked by
// the verifier.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rows, withCommit, type Db } from "../db/client.ts";
import { contentHash, type AuditRow } from "../core/auditChain.ts";
import { changes, storable } from "../../src/domain/auditValues.ts";

/** Who did it: a person, the operations API's token, a device key, or the portal itself. */
export type Actor =
  | { kind: "user"; id: number; label: string }
  | { kind: "ops"; id: number | null; label: string }
  | { kind: "device"; id: number; label: string }
  | { kind: "system"; label: string }
  /** Someone not signed in, named by the address they typed (a failed sign-in). */
  | { kind: "visitor"; label: string }
  /** The recipient of an emailed one-time link (an alarm acknowledged from its mail). */
  | { kind: "mail-link"; label: string };

export interface AuditEntry {
  /** The subscription whose chain takes the row; 0 for what belongs to none. */
  subscriptionId: number | null;
  actor: Actor;
  action: string;
  entityType?: number | null;
  entityId?: string | number | null;
  deviceId?: number | null;
  /** Before and after: only the fields that differ are kept, secrets never. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Record the row even when before and after are equal (a sign-in, an export). */
  always?: boolean;
}

let trailOn = true;

/**
 * Turns the trail off for this process (AUDIT_TRAIL=0): the proof's baseline without it, so
 * that the cost of the chain can be measured on the same paths. Never meant for a portal.
 */
export function turnAuditTrailOff() {
  trailOn = false;
}

/**
 * Writes one row in the caller's transaction, so a change without its row cannot commit. The
 * row is unsealed: no seq, no links, only the hash of its content; the sealer chains it once
 * committed (server/data/auditSeal.ts). Nothing here waits on the chain's head, so changes of
 * one subscription commit side by side. False when nothing changed (no row).
 */
export async function appendAudit(tx: Db, entry: AuditEntry, at: Date, key?: string): Promise<boolean> {
  if (!trailOn) return false;
  const diff = changes(entry.before ?? null, entry.after ?? null);
  if (!diff && !entry.always) return false;
  const content = {
    subscriptionId: entry.subscriptionId ?? 0,
    at,
    actorKind: entry.actor.kind,
    actorId: "id" in entry.actor ? entry.actor.id : null,
    actorLabel: storable(entry.actor.label),
    action: storable(entry.action),
    entityType: entry.entityType ?? null,
    entityId:
      entry.entityId === undefined || entry.entityId === null ? null : storable(String(entry.entityId)),
    deviceId: entry.deviceId ?? null,
    old: diff?.old ?? null,
    new: diff?.new ?? null,
    // From node's cached entropy: a fraction of what randomBytes costs per call.
    nonce: randomUUID(),
  };
  // With the transaction's COMMIT, in its message: the row costs the change no round trip.
  await withCommit(tx, "audit_log", {
    subscription_id: content.subscriptionId,
    at,
    actor_kind: content.actorKind,
    actor_id: content.actorId,
    actor_label: content.actorLabel,
    action: content.action,
    entity_type: content.entityType,
    entity_id: content.entityId,
    device_id: content.deviceId,
    old: content.old,
    new: content.new,
    nonce: content.nonce,
    content_hash: contentHash(content, key),
  });
  return true;
}

interface RawRow {
  subscription_id: number;
  seq: string | number;
  at: Date | string;
  actor_kind: string;
  actor_id: number | null;
  actor_label: string;
  action: string;
  entity_type: number | null;
  entity_id: string | null;
  device_id: number | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
  prev_hash: string;
  hash: string;
  content_hash?: string | null;
  nonce?: string | null;
}

export const auditRowOf = (r: RawRow): AuditRow => ({
  subscriptionId: r.subscription_id,
  seq: Number(r.seq),
  at: new Date(r.at),
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorLabel: r.actor_label,
  action: r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  deviceId: r.device_id,
  old: r.old,
  new: r.new,
  prevHash: r.prev_hash,
  hash: r.hash,
  contentHash: r.content_hash ?? null,
  nonce: r.nonce ?? null,
});

/** One page of a chain in seq order after `afterSeq` (the verifier's walk). */
export async function chainPage(db: Db, subscriptionId: number, afterSeq: number, limit: number) {
  const raw = await rows<RawRow>(
    db,
    sql`select * from audit_log where subscription_id = ${subscriptionId} and seq > ${afterSeq}
        order by seq limit ${limit}`,
  );
  return raw.map(auditRowOf);
}

/**
 * Rows of a chain that carry the same nonce, hence the same content: a copy of a row put in
 * beside it, which fits its hashes as well as the row it copies. Each repeat's seq, with the
 * first seq carrying it.
 */
export async function repeatedRows(db: Db, subscriptionId: number) {
  const found = await rows<{ seqs: (string | number)[] }>(
    db,
    sql`select array_agg(seq order by seq) as seqs from audit_log
        where subscription_id = ${subscriptionId} and nonce is not null and seq is not null
        group by nonce having count(*) > 1`,
  );
  return found.flatMap(({ seqs }) =>
    seqs.slice(1).map((seq) => ({ seq: Number(seq), first: Number(seqs[0]) })),
  );
}

/** The chains there are: every head, and any subscription with rows but no head. */
export async function chainHeads(db: Db, only?: number | undefined) {
  const found = await rows<{
    subscription_id: number;
    seq: string | number | null;
    hash: string | null;
    first_seq: string | number | null;
    first_prev_hash: string | null;
  }>(
    db,
    sql`select s.subscription_id, h.seq, h.hash, h.first_seq, h.first_prev_hash
        from (select subscription_id from audit_heads union select distinct subscription_id from audit_log) s
        left join audit_heads h on h.subscription_id = s.subscription_id
        ${only === undefined ? sql`` : sql`where s.subscription_id = ${only}`}
        order by s.subscription_id`,
  );
  return found.map((h) => ({
    subscriptionId: h.subscription_id,
    head: h.seq === null ? null : { seq: Number(h.seq), hash: h.hash! },
    start: h.first_seq === null ? undefined : { seq: Number(h.first_seq), prevHash: h.first_prev_hash! },
  }));
}
