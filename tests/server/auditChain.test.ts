import { describe, expect, it } from "vitest";
import {
  ChainCheck,
  contentHash,
  GENESIS,
  linkHash,
  rowHash,
  type AuditRow,
} from "../../server/core/auditChain.ts";

/**
 * A chain of n rows for subscription 7, hashed as the data layer appends them: odd rows as
 * before nonces (the whole content hashed with the link), even rows as now (a nonce, the
 * content's own hash, and a link over it).
 */
function chain(n: number, key?: string): AuditRow[] {
  const rows: AuditRow[] = [];
  let prev = GENESIS;
  for (let seq = 1; seq <= n; seq++) {
    const content = {
      subscriptionId: 7,
      seq,
      at: new Date(Date.UTC(2026, 10, 1) + seq * 1000),
      actorKind: "user",
      actorId: 3,
      actorLabel: "admin@example.com",
      action: "device.rename",
      entityType: 3,
      entityId: String(seq % 13),
      deviceId: seq % 13,
      old: { name: `Name ${seq}` },
      new: { name: `Name ${seq + 1}` },
    };
    if (seq % 2) {
      const hash = rowHash(prev, content, key);
      rows.push({ ...content, prevHash: prev, hash });
      prev = hash;
    } else {
      const withNonce = { ...content, nonce: `nonce-${seq}` };
      const own = contentHash(withNonce, key);
      const hash = linkHash(prev, seq, own, key);
      rows.push({ ...withNonce, contentHash: own, prevHash: prev, hash });
      prev = hash;
    }
  }
  return rows;
}

const check = (rows: AuditRow[], head: { seq: number; hash: string } | null, key?: string) => {
  const c = new ChainCheck(7, key);
  for (const r of rows) c.add(r);
  return c.end(head);
};
const headOf = (rows: AuditRow[]) => ({ seq: rows.at(-1)!.seq, hash: rows.at(-1)!.hash });

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe("the audit chain", () => {
  it("finds nothing wrong in an untouched chain", () => {
    const rows = chain(500);
    expect(check(rows, headOf(rows))).toEqual([]);
  });

  it("finds nothing wrong in an empty chain with no head", () => {
    expect(check([], null)).toEqual([]);
  });

  it("hashes the same content the same however its keys are ordered", () => {
    const [row] = chain(1);
    const reordered = { ...row!, new: { name: "Name 2" }, old: { name: "Name 1" } };
    expect(rowHash(GENESIS, reordered)).toBe(row!.hash);
  });

  it("names an edited row, a deleted row, two swapped rows and a cut-off end", () => {
    const rows = chain(10);
    const head = headOf(rows);
    const edited = rows.map((r) => (r.seq === 4 ? { ...r, new: { name: "Other" } } : r));
    expect(check(edited, head)).toEqual([
      { subscriptionId: 7, seq: 4, why: "its content does not match its hash (edited)" },
    ]);
    expect(
      check(
        rows.filter((r) => r.seq !== 6),
        head,
      ),
    ).toEqual([{ subscriptionId: 7, seq: 7, why: "rows 6–6 are missing before it" }]);
    const swapped = rows.map((r) =>
      r.seq === 2 ? { ...rows[4]!, seq: 2 } : r.seq === 5 ? { ...rows[1]!, seq: 5 } : r,
    );
    expect(check(swapped, head).map((f) => f.seq)).toEqual([2, 2, 3, 5, 5, 6]);
    expect(check(rows.slice(0, 8), head)).toEqual([
      { subscriptionId: 7, seq: 10, why: "rows 9–10 are missing at the end" },
    ]);
  });

  it("finds each of 1,000 random edits, deletions, insertions and reorderings of a copy", () => {
    const rows = chain(300);
    const head = headOf(rows);
    const next = random(36);
    const pick = () => Math.floor(next() * rows.length);
    let found = 0;
    for (let i = 0; i < 1000; i++) {
      const copy = rows.map((r) => ({ ...r }));
      const at = pick();
      const kind = i % 4;
      let tampered: number;
      if (kind === 0) {
        // An edit: one field of one row, the hash left as it was.
        copy[at] = { ...copy[at]!, actorLabel: "someone@else.example" };
        tampered = copy[at]!.seq;
      } else if (kind === 1) {
        // A deletion shows at the row after the gap, or at the head for the last row.
        copy.splice(at, 1);
        tampered = Math.min(at + 2, rows.length);
      } else if (kind === 2) {
        // An insertion: a well-hashed row slipped in, the rows after it renumbered.
        const prev = at === 0 ? GENESIS : copy[at - 1]!.hash;
        const forged = { ...copy[at]!, actorLabel: "forged", prevHash: prev };
        forged.hash = rowHash(prev, forged);
        copy.splice(at, 0, forged);
        for (let j = at + 1; j < copy.length; j++) copy[j]!.seq = j + 1;
        tampered = at + 1;
      } else {
        // A reordering: two rows trade places, each keeping its seq slot.
        const other = (at + 1 + Math.floor(next() * (rows.length - 1))) % rows.length;
        const [a, b] = [copy[at]!, copy[other]!];
        copy[at] = { ...b, seq: a.seq };
        copy[other] = { ...a, seq: b.seq };
        tampered = Math.min(a.seq, b.seq);
      }
      const faults = check(copy, head);
      if (faults.some((f) => f.seq === tampered || (kind === 2 && f.seq === tampered + 1))) found++;
      else throw new Error(`tampering ${i} (kind ${kind} at ${at}) went unseen: ${JSON.stringify(faults)}`);
    }
    expect(found).toBe(1000);
  });

  it("with a key, a chain rewritten without it does not verify", () => {
    const rows = chain(5, "audit-key");
    expect(check(rows, headOf(rows), "audit-key")).toEqual([]);
    const rewritten = chain(5);
    expect(check(rewritten, headOf(rewritten), "audit-key")).toHaveLength(5);
    // Nor does a linked row whose nonce was taken away, to be judged as a row from before nonces.
    const stripped = rows.map((r) => ({ ...r, nonce: null }));
    expect(check(stripped, headOf(stripped), "audit-key").map((f) => f.seq)).toEqual([2, 4]);
  });

  it("hashes a row's content apart from its seq and links, keyed under AUDIT_KEY", () => {
    const [row] = chain(1);
    const { seq, prevHash, hash, contentHash: _own, ...content } = row!;
    expect(contentHash(content)).toBe(contentHash({ ...content }));
    expect(contentHash({ ...content, actorLabel: "someone else" })).not.toBe(contentHash(content));
    expect(contentHash(content, "audit-key")).not.toBe(contentHash(content));
    expect(contentHash(content)).not.toBe(hash);
    expect([seq, prevHash]).toEqual([1, GENESIS]);
  });
});
