// What the audit anchor tests share (auditAnchors.test.ts, auditAnchorsAttack.test.ts): a keyed
// chain of renames sealed one by one with every head anchored, and how a check's faults read.
import { sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../../server/db/client.ts";
import { appendAudit, type AuditEntry } from "../../server/data/audit.ts";
import { sealAll } from "../../server/data/auditSeal.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import type { AuditAnchor } from "../../server/core/auditChain.ts";
import { TEST_NOW } from "./helpers.ts";

export const KEY = "a-key-of-thirty-two-characters!!";

export const rename = (subscriptionId: number, n: number): AuditEntry => ({
  subscriptionId,
  actor: { kind: "user", id: 1, label: "admin@example.com" },
  action: "device.rename",
  entityType: 3,
  entityId: 5,
  deviceId: 5,
  before: { name: `Freezer ${n}` },
  after: { name: `Freezer ${n + 1}` },
});

/** A sink that keeps every head the sealer tells. */
export const collect = () => {
  const anchors: AuditAnchor[] = [];
  return { anchors, sink: { note: (a: AuditAnchor) => void anchors.push(a) } };
};

/** The chain helpers on the database `db()` gives. */
export function anchorKit(db: () => Db) {
  /** n renames (at `at`, from the n-th `from`), each sealed at once, every head anchored. */
  const chain = async (sub: number, n: number, at = TEST_NOW, from = 1) => {
    const { anchors, sink } = collect();
    for (let i = from; i < from + n; i++) {
      await inTransaction(db(), (tx) => appendAudit(tx, rename(sub, i), at, KEY));
      await sealAll(db(), KEY, true, sink);
    }
    return anchors;
  };
  /** The check of one chain, with the anchors given (none: the chain alone). */
  const check = (sub: number, anchors?: AuditAnchor[]) =>
    verifyAudit(db(), { subscriptionId: sub, key: KEY, ...(anchors ? { anchors } : {}) });
  /** Each fault as "seq: why", the why up to its first parenthesis. */
  const faultsOf = async (sub: number, anchors: AuditAnchor[]) =>
    (await check(sub, anchors)).faults.map((f) => `${f.seq}: ${f.why.split(" (")[0]}`);
  const hashAt = async (sub: number, seq: number) =>
    (
      await rows<{ hash: string }>(
        db(),
        sql`select hash from audit_log where subscription_id = ${sub} and seq = ${seq}`,
      )
    )[0]!.hash;
  return { chain, check, faultsOf, hashAt };
}
