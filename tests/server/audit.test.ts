import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction, rows, type Database } from "../../server/db/client.ts";
import { appendAudit, chainPage, type AuditEntry } from "../../server/data/audit.ts";
import { sealAll } from "../../server/data/auditSeal.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { trimAuditTrail } from "../../server/flows/auditRetention.ts";
import { auditPage, auditStream } from "../../server/data/auditQueries.ts";
import { openTestDatabase, TEST_NOW } from "./helpers.ts";
import { GENESIS, linkHash, rowFits } from "../../server/core/auditChain.ts";

const admin = { kind: "user", id: 1, label: "admin@example.com" } as const;
const rename = (subscriptionId: number, n: number): AuditEntry => ({
  subscriptionId,
  actor: admin,
  action: "device.rename",
  entityType: 3,
  entityId: 5,
  deviceId: 5,
  before: { name: `Freezer ${n}`, nested: { b: 1, a: [1, "x"] } },
  after: { name: `Freezer ${n + 1}`, nested: { b: 1, a: [1, "x"] } },
});

describe("the audit trail in the database", () => {
  let database: Database & { drop(): Promise<void> };
  const db = () => database.db;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  const append = (entry: AuditEntry) => inTransaction(db(), (tx) => appendAudit(tx, entry, TEST_NOW));

  it("chains each subscription's rows from 1 and verifies them", async () => {
    for (let n = 1; n <= 20; n++) {
      await append(rename(101, n));
      await append(rename(102, n));
    }
    const result = await verifyAudit(db());
    expect(result).toEqual({ chains: 2, rows: 40, faults: [], anchoredAt: null });
    const chained = await chainPage(db(), 101, 0, 100);
    expect(chained.map((r) => [r.seq, r.old])).toEqual(
      Array.from({ length: 20 }, (_, i) => [i + 1, { name: `Freezer ${i + 1}` }]),
    );
  });

  it("keeps only what changed, and a change of nothing writes no row", async () => {
    const [row] = await chainPage(db(), 101, 0, 1);
    expect(row).toMatchObject({
      old: { name: "Freezer 1" },
      new: { name: "Freezer 2" },
      actorLabel: "admin@example.com",
    });
    expect(await append({ ...rename(101, 1), after: rename(101, 1).before ?? null })).toBe(false);
  });

  it("writes no row for a change whose transaction rolls back", async () => {
    await expect(
      inTransaction(db(), async (tx) => {
        await appendAudit(tx, rename(101, 99), TEST_NOW);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await verifyAudit(db(), { subscriptionId: 101 })).toMatchObject({ rows: 20, faults: [] });
  });

  it("chains rows of awkward text that verify as read back, with and without a key", async () => {
    // Quotes, backslashes, a newline, non-Latin text and an emoji: what jsonb gives back must
    // hash as what was written.
    const awkward = (n: number): AuditEntry => ({
      ...rename(501, n),
      actor: { kind: "user", id: 2, label: 'Zoë "Ö" \\ 東京 🌡' },
      before: { name: `line\nbreak ${n}`, note: "tab\there", seq: 7 },
      after: { name: `«${n}» \u2028 ✓`, note: null, seq: 8 },
    });
    const keys = [undefined, "a-key-of-thirty-two-characters!!", "k".repeat(100)];
    for (const [i, key] of keys.entries()) {
      const sub = 501 + i;
      for (let n = 1; n <= 3; n++)
        await inTransaction(db(), (tx) =>
          appendAudit(tx, { ...awkward(n), subscriptionId: sub }, TEST_NOW, key),
        );
      expect(await verifyAudit(db(), { subscriptionId: sub, key })).toEqual({
        chains: 1,
        rows: 3,
        faults: [],
        anchoredAt: null,
      });
      if (key) expect((await verifyAudit(db(), { subscriptionId: sub })).faults).toHaveLength(3);
    }
    const [first] = await chainPage(db(), 501, 0, 1);
    expect(first).toMatchObject({ seq: 1, prevHash: GENESIS, actorLabel: 'Zoë "Ö" \\ 東京 🌡' });
    expect(first!.hash).toBe(linkHash(GENESIS, 1, first!.contentHash!));
    expect(rowFits(first!)).toBe(true);
  });

  it("records a NUL and lone surrogates as stored text can hold them, and the row still fits", async () => {
    // Text PostgreSQL cannot store as given: a NUL anywhere, a lone surrogate (JSON '\\ud800').
    const odd = "a\u0000b \ud800 c \udc00";
    await inTransaction(db(), (tx) =>
      appendAudit(
        tx,
        {
          ...rename(505, 1),
          actor: { kind: "visitor", label: odd },
          entityId: odd,
          before: { name: odd, list: [odd] },
          after: { name: "plain", list: [] },
        },
        TEST_NOW,
        "a-key-of-thirty-two-characters!!",
      ),
    );
    const check = await verifyAudit(db(), { subscriptionId: 505, key: "a-key-of-thirty-two-characters!!" });
    expect(check).toEqual({ chains: 1, rows: 1, faults: [], anchoredAt: null });
    const [row] = await chainPage(db(), 505, 0, 1);
    expect(row).toMatchObject({
      actorLabel: "ab \ufffd c \ufffd",
      entityId: "ab \ufffd c \ufffd",
      old: { name: "ab \ufffd c \ufffd", list: ["ab \ufffd c \ufffd"] },
    });
  });

  it("names an edited, a deleted and two swapped rows, and rows cut off the end", async () => {
    await db().execute(
      sql`update audit_log set new = '{"name":"Other"}' where subscription_id = 101 and seq = 3`,
    );
    await db().execute(sql`delete from audit_log where subscription_id = 101 and seq = 7`);
    await db().execute(sql`update audit_log set seq = -1 where subscription_id = 101 and seq = 10`);
    await db().execute(sql`update audit_log set seq = 10 where subscription_id = 101 and seq = 12`);
    await db().execute(sql`update audit_log set seq = 12 where subscription_id = 101 and seq = -1`);
    await db().execute(sql`delete from audit_log where subscription_id = 101 and seq > 18`);
    const { faults } = await verifyAudit(db(), { subscriptionId: 101 });
    expect(faults.map((f) => [f.seq, f.why])).toEqual([
      [3, "its content does not match its hash (edited)"],
      [8, "rows 7–7 are missing before it"],
      // A moved row breaks its link and, its seq being part of its content, its own hash.
      [10, "it does not follow the row before it (moved or replaced)"],
      [10, "its content does not match its hash (edited)"],
      [11, "it does not follow the row before it (moved or replaced)"],
      [12, "it does not follow the row before it (moved or replaced)"],
      [12, "its content does not match its hash (edited)"],
      [13, "it does not follow the row before it (moved or replaced)"],
      [20, "rows 19–20 are missing at the end"],
    ]);
    expect((await verifyAudit(db(), { subscriptionId: 102 })).faults).toEqual([]);
  });

  it("lets rows older than the retention go from the start of the chain, and what is kept still verifies", async () => {
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(TEST_NOW.getTime() - daysAgo * day);
    for (const daysAgo of [3000, 2900, 10, 5])
      await inTransaction(db(), (tx) => appendAudit(tx, rename(301, daysAgo), at(daysAgo)));
    await sealAll(db(), undefined);
    // Seven years is 2,555 days: the two older rows go, the two younger stay.
    expect(await trimAuditTrail(db(), TEST_NOW)).toBeGreaterThanOrEqual(2);
    const left = await rows<{ seq: string }>(
      db(),
      sql`select seq from audit_log where subscription_id = 301 order by seq`,
    );
    expect(left.map((r) => Number(r.seq))).toEqual([3, 4]);
    expect((await verifyAudit(db(), { subscriptionId: 301 })).faults).toEqual([]);
    await inTransaction(db(), (tx) => appendAudit(tx, rename(301, 1), TEST_NOW));
    expect((await verifyAudit(db(), { subscriptionId: 301 })).faults).toEqual([]);
    // A kept row deleted afterwards is still found.
    await db().execute(sql`delete from audit_log where subscription_id = 301 and seq = 3`);
    expect((await verifyAudit(db(), { subscriptionId: 301 })).faults.map((f) => f.seq)).toEqual([4]);
  });

  it("streams a filtered export newest first across spans of seqs, from where a trimmed chain starts", async () => {
    for (let n = 1; n <= 30; n++)
      await inTransaction(db(), (tx) =>
        appendAudit(tx, { ...rename(401, n), deviceId: n % 3 === 0 ? 7 : 5 }, TEST_NOW),
      );
    await sealAll(db(), undefined);
    await db().execute(sql`update audit_heads set first_seq = 4 where subscription_id = 401`);
    await db().execute(sql`delete from audit_log where subscription_id = 401 and seq < 4`);
    const seqs = async (f: Parameters<typeof auditStream>[2]) => {
      const got: number[] = [];
      for await (const page of auditStream(db(), 401, f, 7)) got.push(...page.map((e) => e.seq));
      return got;
    };
    expect(await seqs({})).toEqual(Array.from({ length: 27 }, (_, i) => 30 - i));
    expect(await seqs({ deviceId: "7" })).toEqual([30, 27, 24, 21, 18, 15, 12, 9, 6]);
  });

  it("keeps the attempts of addresses nobody has (chain 0) for 90 days only", async () => {
    const day = 86_400_000;
    for (const daysAgo of [400, 91, 89])
      await inTransaction(db(), (tx) =>
        appendAudit(tx, rename(0, daysAgo), new Date(TEST_NOW.getTime() - daysAgo * day)),
      );
    await sealAll(db(), undefined);
    await trimAuditTrail(db(), TEST_NOW);
    const left = await rows<{ seq: string }>(db(), sql`select seq from audit_log where subscription_id = 0`);
    expect(left.map((r) => Number(r.seq))).toEqual([3]);
    expect((await verifyAudit(db(), { subscriptionId: 0 })).faults).toEqual([]);
  });

  it("never chains a row slipped in unsealed whose content does not fit, and names it", async () => {
    const key = "a-key-of-thirty-two-characters!!";
    for (let n = 1; n <= 3; n++)
      await inTransaction(db(), (tx) => appendAudit(tx, rename(601, n), TEST_NOW, key));
    await db().execute(
      sql`insert into audit_log (subscription_id, at, actor_kind, actor_label, action, content_hash)
          values (601, ${TEST_NOW}, 'user', 'intruder@example.com', 'device.rename', ${"f".repeat(64)})`,
    );
    await inTransaction(db(), (tx) => appendAudit(tx, rename(601, 4), TEST_NOW, key));
    const result = await verifyAudit(db(), { subscriptionId: 601, key });
    expect(result.rows).toBe(4);
    expect(result.faults).toHaveLength(1);
    expect(result.faults[0]!.why).toMatch(
      /^a row not yet chained \(id \d+\) does not match the hash it was written with/,
    );
    const chained = await chainPage(db(), 601, 0, 10);
    expect(chained.map((r) => r.actorLabel)).not.toContain("intruder@example.com");
  });

  it("never chains a row slipped in with a nonce but a made-up content hash, nor shows it, and names it", async () => {
    const key = "a-key-of-thirty-two-characters!!";
    await inTransaction(db(), (tx) => appendAudit(tx, rename(602, 1), TEST_NOW, key));
    await db().execute(
      sql`insert into audit_log (subscription_id, at, actor_kind, actor_label, action, nonce, content_hash)
          values (602, ${TEST_NOW}, 'user', 'intruder@example.com', 'device.rename', 'made-up', ${"f".repeat(64)})`,
    );
    await inTransaction(db(), (tx) => appendAudit(tx, rename(602, 2), TEST_NOW, key));
    const result = await verifyAudit(db(), { subscriptionId: 602, key });
    expect(result.rows).toBe(2);
    expect(result.faults).toHaveLength(1);
    expect(result.faults[0]!.why).toMatch(/^a row not yet chained \(id \d+\) does not match/);
    const shown = await auditPage(db(), 602, {}, null, 10);
    expect(shown.map((r) => r.actor)).toEqual(["admin@example.com", "admin@example.com"]);
  });

  it("names a copy of a real row put in beside it, which fits every hash", async () => {
    const key = "a-key-of-thirty-two-characters!!";
    for (let n = 1; n <= 3; n++)
      await inTransaction(db(), (tx) => appendAudit(tx, rename(603, n), TEST_NOW, key));
    await sealAll(db(), key);
    await db().execute(
      sql`insert into audit_log (subscription_id, at, actor_kind, actor_id, actor_label, action, entity_type,
            entity_id, device_id, old, new, nonce, content_hash)
          select subscription_id, at, actor_kind, actor_id, actor_label, action, entity_type, entity_id,
            device_id, old, new, nonce, content_hash from audit_log where subscription_id = 603 and seq = 2`,
    );
    const result = await verifyAudit(db(), { subscriptionId: 603, key });
    expect(result.rows).toBe(4);
    expect(result.faults.map((f) => [f.seq, f.why])).toEqual([
      [4, "it and row 2 are the same row word for word: one of them is a copy added outside the portal"],
    ]);
  });

  it("chains every row once when several sealers run at once", async () => {
    for (let n = 1; n <= 60; n++) await append(rename(701, n));
    const sealed = await Promise.all([1, 2, 3, 4].map(() => sealAll(db(), undefined)));
    expect(sealed.reduce((a, b) => a + b, 0)).toBe(60);
    expect(await verifyAudit(db(), { subscriptionId: 701 })).toEqual({
      chains: 1,
      rows: 60,
      faults: [],
      anchoredAt: null,
    });
  });

  it.runIf(process.env["TEST_DATABASE_URL"])(
    "lets changes of one subscription commit side by side, and chains them in commit order",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const holds = new Promise<void>((r) => (holding = r));
      const first = inTransaction(db(), async (tx) => {
        await appendAudit(tx, rename(201, 1), TEST_NOW);
        holding();
        await held;
      });
      await holds;
      const t0 = performance.now();
      await append(rename(202, 1));
      await append(rename(201, 2));
      const meanwhile = performance.now() - t0;
      await sealAll(db(), undefined);
      release();
      await first;
      await sealAll(db(), undefined);
      expect(meanwhile).toBeLessThan(1000);
      const chained = await chainPage(db(), 201, 0, 10);
      expect(chained.map((r) => [r.seq, r.old])).toEqual([
        [1, { name: "Freezer 2" }],
        [2, { name: "Freezer 1" }],
      ]);
      expect((await verifyAudit(db(), { subscriptionId: 201 })).faults).toEqual([]);
    },
  );
});
