// The audit trail's chain (docs/decisions.md, "Audit trail"): how a row's hash is made from its
// content and the hash before it, and how a chain is checked. Pure: the data layer appends
// with it, `npm run audit -- verify` and the Administrators' button check with it.
import { createHmac, hash } from "node:crypto";
import { canonical } from "../../src/domain/canonicalJson.ts";

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
  /**
   * Random, made as the row is written: no two rows' contents are alike, so a copy of a row
   * added beside it is told from a second real event (rows sealed by link carry one).
   */
  nonce?: string | null | undefined;
}
export interface AuditRow extends AuditContent {
  prevHash: string;
  hash: string;
  /** The hash of the content alone, made as the row was written (null before sealing existed). */
  contentHash?: string | null | undefined;
}

/** The row's content is hashed in canonical JSON (src/domain/canonicalJson.ts). */
export { canonical };

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
    // Absent, not null, on rows from before nonces: their hashes stay as they were made.
    ...(row.nonce ? { nonce: row.nonce } : {}),
  };
  return mac(`${prevHash}\n${canonical(content)}`, key);
}

const mac = (text: string, key: string | undefined) =>
  key ? createHmac("sha256", key).update(text).digest("hex") : hash("sha256", text, "hex");

/**
 * A sealed row's hash (rows with a nonce): its place, the hash before it and the hash of its
 * content made when it was written. The sealer then never reads a row's content back, and the
 * check still covers it: the content must fit its content hash, which the link covers.
 */
export function linkHash(prevHash: string, seq: number, ownHash: string, key?: string): string {
  // Its own prefix: no link text can read as a row hash's or a content hash's text.
  return mac(`link\n${prevHash}\n${seq}\n${ownHash}`, key);
}

/** Whether a sealed row's hashes fit its content, its place and the hash before it. */
export function rowFits(row: AuditRow, key?: string): boolean {
  if (!row.nonce) return rowHash(row.prevHash, row, key) === row.hash;
  return (
    row.contentHash === contentHash(row, key) &&
    linkHash(row.prevHash, row.seq, row.contentHash, key) === row.hash
  );
}

/**
 * The hash of a row's content alone, seq and links left out, made as the row is written and
 * before it is chained. A sealed row's link covers it (linkHash), so an edit of the content
 * shows as a content that no longer fits; under AUDIT_KEY nobody without the key can make one
 * that fits.
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
 * A chain's head as the sealer left it, kept outside the database (services/auditAnchors.ts):
 * its last seq and hash, where retention had left its start, and when. The hash at a seq covers
 * every row up to it, so one anchor shows whether the chain up to there is still the one sealed.
 */
export interface AuditAnchor {
  subscriptionId: number;
  seq: number;
  hash: string;
  firstSeq: number;
  /** When it was sealed (ISO). */
  at: string;
}

/**
 * An anchor's mark under AUDIT_KEY: a line someone slipped into a log or an anchor file without
 * the key is passed over instead of raising false alarms. Its own prefix, like links.
 */
export function anchorMark(a: AuditAnchor, key: string): string {
  return mac(`anchor\n${a.subscriptionId}\n${a.seq}\n${a.hash}\n${a.firstSeq}\n${a.at}`, key);
}

/** Where the sealer tells each new head (nothing by default; a file and the log in a portal). */
export interface AnchorSink {
  /** `from`: the head the seal started from (a chain that went back shows there). */
  note(anchor: AuditAnchor, from?: { seq: number; hash: string }): void;
}

/** "row 4", or "rows 4–6". */
const rowsFrom = (first: number, last: number) => (first === last ? `row ${first}` : `rows ${first}–${last}`);

/**
 * Checks one subscription's rows, given in seq order, against each other and the head. Every
 * row is judged against the stored hash before it, so one pass names each tampered row (an
 * edit breaks its own hash, a deletion leaves a gap, swapped rows break their links).
 * Anchors kept outside the database also name a chain cut back or chained again.
 */
export class ChainCheck {
  private lastSeq = 0;
  private lastHash = GENESIS;
  readonly faults: ChainFault[] = [];
  rows = 0;
  readonly subscriptionId: number;
  private readonly key: string | undefined;
  /** This chain's anchors by seq, and whether one has already been found broken. */
  private readonly anchors = new Map<number, AuditAnchor[]>();
  private anchorBroken = false;
  private readonly lastAnchor: AuditAnchor | undefined;
  /** The anchor that saw the chain start latest: rows before its start must stay gone. */
  private trimmedBy: AuditAnchor | undefined;
  /**
   * `start`: where retention left the chain's beginning (its first seq and the hash before it).
   * `anchors`: the chain's heads as kept outside the database, which the rows must still match.
   */
  constructor(
    subscriptionId: number,
    key?: string,
    start?: { seq: number; prevHash: string },
    anchors: AuditAnchor[] = [],
    keepSince?: string,
  ) {
    this.subscriptionId = subscriptionId;
    this.key = key;
    if (start) {
      this.lastSeq = start.seq - 1;
      this.lastHash = start.prevHash;
    }
    for (const a of anchors) {
      this.anchors.set(a.seq, [...(this.anchors.get(a.seq) ?? []), a]);
      if (!this.lastAnchor || a.seq > this.lastAnchor.seq) this.lastAnchor = a;
    }
    for (const a of anchors) if (a.firstSeq > (this.trimmedBy?.firstSeq ?? 1)) this.trimmedBy = a;
    // Retention removes rows from the start only once older than its floor (`keepSince`): a
    // start past a row sealed later than that was moved outside the portal.
    const startSeq = this.lastSeq + 1;
    const tooYoung = anchors
      .filter((a) => a.seq < startSeq && keepSince !== undefined && Date.parse(a.at) > Date.parse(keepSince))
      .reduce<AuditAnchor | undefined>((most, a) => (a.seq > (most?.seq ?? 0) ? a : most), undefined);
    if (tooYoung)
      this.faults.push({
        subscriptionId,
        seq: startSeq,
        why: `the chain starts at row ${startSeq}, but row ${tooYoung.seq} was sealed by ${tooYoung.at} (anchored outside the database), later than retention may remove: rows up to it were removed outside the portal`,
      });
    this.matchAnchors(this.lastSeq, this.lastHash);
  }

  /** Names the first anchor the chain no longer matches: rows up to it were chained again. */
  private matchAnchors(seq: number, hashThere: string) {
    if (this.anchorBroken) return;
    const broken = this.anchors.get(seq)?.find((a) => a.hash !== hashThere);
    if (!broken) return;
    this.anchorBroken = true;
    this.faults.push({
      subscriptionId: this.subscriptionId,
      seq,
      why: `the chain up to here is not the one sealed by ${broken.at} (anchored outside the database): rows up to it were removed, added or moved and chained again`,
    });
  }

  add(row: AuditRow) {
    this.rows++;
    const fault = (why: string) =>
      this.faults.push({ subscriptionId: this.subscriptionId, seq: row.seq, why });
    const trimmed = this.trimmedBy;
    if (trimmed && row.seq < trimmed.firstSeq) {
      fault(
        `${rowsFrom(row.seq, trimmed.firstSeq - 1)} had been removed by retention by ${trimmed.at} (anchored outside the database) and ${trimmed.firstSeq - 1 > row.seq ? "are" : "is"} back`,
      );
      this.trimmedBy = undefined;
    }
    if (row.seq <= this.lastSeq) {
      // Not a place in the chain (a row put in below its start): named, and the walk goes on
      // from the rows before it, so the rows after it are judged as they are.
      fault("it repeats or goes back in the sequence");
      if (!rowFits(row, this.key)) fault("its content does not match its hash (edited)");
      return;
    }
    if (row.seq > this.lastSeq + 1) fault(`rows ${this.lastSeq + 1}–${row.seq - 1} are missing before it`);
    else if (row.prevHash !== this.lastHash)
      fault("it does not follow the row before it (moved or replaced)");
    if (!rowFits(row, this.key)) fault("its content does not match its hash (edited)");
    this.lastSeq = row.seq;
    this.lastHash = row.hash;
    this.matchAnchors(row.seq, row.hash);
  }

  /** Compares the end of the chain with its head (rows cut off the end, a head rewritten) and its anchors. */
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
    const anchored = this.lastAnchor;
    if (anchored && anchored.seq > Math.max(seq, this.lastSeq))
      this.faults.push({
        subscriptionId: this.subscriptionId,
        seq: anchored.seq,
        why: `${rowsFrom(Math.max(seq, this.lastSeq) + 1, anchored.seq)} had been sealed by ${anchored.at} (anchored outside the database) and ${anchored.seq > Math.max(seq, this.lastSeq) + 1 ? "are" : "is"} gone: the chain was cut back`,
      });
    return this.faults;
  }
}
