// The audit trail's rows (docs/decisions.md, "Audit trail"): appended inside the transaction of
// the change they record, read by the viewer and the export, walked by the verifier.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { GENESIS, hmacPads, textAroundSeq, type AuditRow } from "../core/auditChain.ts";
import { changes } from "../../src/domain/auditValues.ts";

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

/**
 * Appends one row to its subscription's chain, in the caller's transaction: the head row is
 * taken (created at the first row) and held until the transaction ends, so the chain follows
 * commit order and a change without its row cannot commit. Returns the seq, or null when the
 * change changed nothing.
 */
let trailOn = true;

/**
 * Turns the trail off for this process (AUDIT_TRAIL=0): the proof's baseline without it, so
 * that the cost of the chain can be measured on the same paths. Never meant for a portal.
 */
export function turnAuditTrailOff() {
  trailOn = false;
}

export async function appendAudit(tx: Db, entry: AuditEntry, at: Date, key?: string): Promise<number | null> {
  if (!trailOn) return null;
  const diff = changes(entry.before ?? null, entry.after ?? null);
  if (!diff && !entry.always) return null;
  const subscriptionId = entry.subscriptionId ?? 0;
  const content = {
    subscriptionId,
    at,
    actorKind: entry.actor.kind,
    actorId: "id" in entry.actor ? entry.actor.id : null,
    actorLabel: entry.actor.label,
    action: entry.action,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    deviceId: entry.deviceId ?? null,
    old: diff?.old ?? null,
    new: diff?.new ?? null,
  };
  const { before, after } = textAroundSeq(content);
  // The hash of a row at `seq` after `prev`, made by the database: the seq and the hash before
  // are known only under the head's lock. It is rowHash's text and hash, byte for byte.
  const hashOf = (prev: SQL, seq: SQL) => {
    const text = sql`convert_to(${prev} || ${"\n" + before} || (${seq})::text || ${after}, 'UTF8')`;
    if (!key) return sql`encode(sha256(${text}), 'hex')`;
    const pads = padsOf(key);
    return sql`encode(sha256(${pads.outer}::bytea || sha256(${pads.inner}::bytea || ${text})), 'hex')`;
  };
  // One statement: the head is made or locked and moved on (until the transaction ends, so the
  // chain follows commit order), and the row takes its seq and both hashes from it. Two
  // statements held the head's lock over one more round trip (issue 37's 5 % on small changes).
  const [added] = await rows<{ seq: string | number }>(
    tx,
    sql`with head as (
          insert into audit_heads as h (subscription_id, seq, prev_hash, hash)
          values (${subscriptionId}, 1, ${GENESIS}, ${hashOf(sql`${GENESIS}::text`, sql`1`)})
          on conflict (subscription_id) do update
            set seq = h.seq + 1, prev_hash = h.hash, hash = ${hashOf(sql`h.hash`, sql`h.seq + 1`)}
          returning seq, prev_hash, hash)
        insert into audit_log (subscription_id, seq, at, actor_kind, actor_id, actor_label, action,
          entity_type, entity_id, device_id, old, new, prev_hash, hash)
        select ${subscriptionId}, head.seq, ${at}, ${content.actorKind}, ${content.actorId},
          ${content.actorLabel}, ${content.action}, ${content.entityType}, ${content.entityId},
          ${content.deviceId}, ${json(content.old)}::jsonb, ${json(content.new)}::jsonb, head.prev_hash, head.hash
        from head
        returning seq`,
  );
  return Number(added!.seq);
}

/** The key's HMAC pads, made once per key (a portal has one). */
const pads = new Map<string, { inner: Buffer; outer: Buffer }>();
const padsOf = (key: string) => {
  let p = pads.get(key);
  if (!p) pads.set(key, (p = hmacPads(key)));
  return p;
};

const json = (v: Record<string, unknown> | null) => (v === null ? null : JSON.stringify(v));

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
