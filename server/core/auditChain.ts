// The audit trail's chain (docs/decisions.md, "Audit trail"): how a row's hash is made from its
// content and the hash before it, and how a chain is checked. Pure: the data layer appends
// with it, `npm run audit -- verify` and the Administrators' button check with it.
import { createHmac, hash } from "node:crypto";

/** The hash before a chain's first row. */
export const GENESIS = "0".repeat(64);

/** What a row's hash covers: everything in it but the hash itself. */
export interface AuditContent {
  subscriptionId: number;
  seq: number;
  at: Date;
  actorKind: string;
  actorId: number | null;
  actorLabel: string;
  action: string;
  entityType: number | null;
  entityId: string | null;
  deviceId: number | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
}
export interface AuditRow extends AuditContent {
  prevHash: string;
  hash: string;
}

/**
 * JSON with keys sorted at every level, so a row reads the same after PostgreSQL's jsonb has
 * reordered its keys.
 */
export function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The row's hash: SHA-256 of the previous hash and the row's canonical content; an HMAC under
 * AUDIT_KEY when one is configured, so that rewriting a whole chain needs a key the database
 * does not hold.
 */
export function rowHash(prevHash: string, row: AuditContent, key?: string): string {
  // Named one by one: a row read back carries its hashes too, which the content must not.
  const content: AuditContent = {
    subscriptionId: row.subscriptionId,
    seq: row.seq,
    at: row.at,
    actorKind: row.actorKind,
    actorId: row.actorId,
    actorLabel: row.actorLabel,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    deviceId: row.deviceId,
    old: row.old,
    new: row.new,
  };
  const text = `${prevHash}\n${canonical(content)}`;
  return key ? createHmac("sha256", key).update(text).digest("hex") : hash("sha256", text, "hex");
}

/**
 * The hash of a row's content alone, seq and links left out, made as the row is written and
 * before it is chained: the sealer chains a row only when this still fits, so (under AUDIT_KEY)
 * a row slipped into the table unsealed is never chained as if the portal had written it.
 */
export function contentHash(row: Omit<AuditContent, "seq">, key?: string): string {
  return rowHash("unsealed", { ...row, seq: 0 }, key);
}

export interface ChainFault {
  subscriptionId: number;
  /** The row where the chain stops fitting (for a cut-off end: the head's seq). */
  seq: number;
  why: string;
}

/**
 * Checks one subscription's rows, given in seq order, against each other and the head. Every
 * row is judged against the stored hash before it, so one pass names each tampered row (an
 * edit breaks its own hash, a deletion leaves a gap, swapped rows break their links).
 */
export class ChainCheck {
  private lastSeq = 0;
  private lastHash = GENESIS;
  readonly faults: ChainFault[] = [];
  rows = 0;
  readonly subscriptionId: number;
  private readonly key: string | undefined;
  /** `start`: where retention left the chain's beginning (its first seq and the hash before it). */
  constructor(subscriptionId: number, key?: string, start?: { seq: number; prevHash: string }) {
    this.subscriptionId = subscriptionId;
    this.key = key;
    if (start) {
      this.lastSeq = start.seq - 1;
      this.lastHash = start.prevHash;
    }
  }

  add(row: AuditRow) {
    this.rows++;
    const fault = (why: string) =>
      this.faults.push({ subscriptionId: this.subscriptionId, seq: row.seq, why });
    if (row.seq !== this.lastSeq + 1)
      fault(
        row.seq > this.lastSeq + 1
          ? `rows ${this.lastSeq + 1}–${row.seq - 1} are missing before it`
          : "it repeats or goes back in the sequence",
      );
    else if (row.prevHash !== this.lastHash)
      fault("it does not follow the row before it (moved or replaced)");
    if (rowHash(row.prevHash, row, this.key) !== row.hash)
      fault("its content does not match its hash (edited)");
    this.lastSeq = row.seq;
    this.lastHash = row.hash;
  }

  /** Compares the end of the chain with its head (rows cut off the end, a head rewritten). */
  end(head: { seq: number; hash: string } | null) {
    const seq = head?.seq ?? 0;
    if (seq > this.lastSeq)
      this.faults.push({
        subscriptionId: this.subscriptionId,
        seq,
        why: `rows ${this.lastSeq + 1}–${seq} are missing at the end`,
      });
    else if (seq < this.lastSeq || (head?.hash ?? GENESIS) !== this.lastHash)
      this.faults.push({
        subscriptionId: this.subscriptionId,
        seq: this.lastSeq,
        why: "the chain's head does not name its last row",
      });
    return this.faults;
  }
}
