// An attack review of the audit anchors (services/auditAnchors.ts, docs/decisions.md "What the
// chain cannot prove on its own, and the anchors"), as someone who can write the database but
// holds neither AUDIT_KEY nor the server's files and logs, and as a web user.
//
// Tests titled "finding n" were holes the review found (the check said intact, or an anchor was
// lost); each now shows the hole closed. Tests titled "caught" show an attempt the check named
// from the start, or that fails.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inTransaction, rows, type Database } from "../../server/db/client.ts";
import { appendAudit } from "../../server/data/audit.ts";
import { sealAll, sealChain } from "../../server/data/auditSeal.ts";
import { auditPage } from "../../server/data/auditQueries.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { trimAuditTrail } from "../../server/flows/auditRetention.ts";
import { GENESIS, type AuditAnchor } from "../../server/core/auditChain.ts";
import { fileAnchors, parseAnchors } from "../../server/services/auditAnchors.ts";
import { lineOf } from "../../server/http/requestLog.ts";
import { openTestDatabase, TEST_NOW } from "./helpers.ts";
import { anchorKit, collect, KEY, rename } from "./auditAnchorKit.ts";

const YEAR_MS = 365 * 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "anchors-attack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attacks on the anchored audit chains, by a database writer without AUDIT_KEY", () => {
  let database: Database & { drop(): Promise<void> };
  const db = () => database.db;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  const { chain, check, faultsOf, hashAt } = anchorKit(db);
  const names = async (sub: number) =>
    (
      await rows<{ name: string }>(
        db(),
        sql`select new->>'name' as name from audit_log where subscription_id = ${sub} and seq > 0 order by seq`,
      )
    ).map((r) => r.name);
  /** The rows as they are stored, for putting back later (what a backup of the database holds). */
  const saved = (sub: number, where: ReturnType<typeof sql>) =>
    rows<Record<string, unknown>>(
      db(),
      sql`select * from audit_log where subscription_id = ${sub} and ${where}`,
    );
  const putBack = (kept: Record<string, unknown>[]) =>
    db().execute(
      sql`insert into audit_log select * from jsonb_populate_recordset(null::audit_log, ${JSON.stringify(kept)}::jsonb)`,
    );

  it("finding 1: names the oldest rows of a young chain deleted, the head's start moved as retention would", async () => {
    const anchors = await chain(801, 6);
    // Rows 1–4 are minutes old: retention (7 years) could never have removed them.
    await db().execute(sql`delete from audit_log where subscription_id = 801 and seq <= 4`);
    const before = await rows<{ hash: string }>(
      db(),
      sql`select prev_hash as hash from audit_log where subscription_id = 801 and seq = 5`,
    );
    await db().execute(
      sql`update audit_heads set first_seq = 5, first_prev_hash = ${before[0]!.hash} where subscription_id = 801`,
    );
    expect(await names(801)).toEqual(["Freezer 6", "Freezer 7"]);
    // Row 4 was sealed minutes ago: retention keeps 7 years.
    const named = ["5: the chain starts at row 5, but row 4 was sealed by " + anchors[3]!.at];
    expect(await faultsOf(801, anchors)).toEqual(named);
    // The portal goes on anchoring the attacker's start; the older anchors still name it.
    const { anchors: after, sink } = collect();
    await inTransaction(db(), (tx) => appendAudit(tx, rename(801, 7), TEST_NOW, KEY));
    await sealAll(db(), KEY, true, sink);
    expect(after).toMatchObject([{ seq: 7, firstSeq: 5 }]);
    expect(await faultsOf(801, [...anchors, ...after])).toEqual(named);
  });

  it("finding 2: names a whole chain's rows deleted, the start moved past the head (retention's 'nothing younger')", async () => {
    const anchors = await chain(802, 5);
    const head = await rows<{ seq: number; hash: string }>(
      db(),
      sql`select seq, hash from audit_heads where subscription_id = 802`,
    );
    await db().execute(sql`delete from audit_log where subscription_id = 802`);
    await db().execute(
      sql`update audit_heads set first_seq = ${Number(head[0]!.seq) + 1}, first_prev_hash = hash where subscription_id = 802`,
    );
    expect(await names(802)).toEqual([]);
    expect(await faultsOf(802, anchors)).toEqual([
      "6: the chain starts at row 6, but row 5 was sealed by " + anchors[4]!.at,
    ]);
  });

  it("finding 3: names a row moved from the start of a chain to its end (start moved, row put back unsealed)", async () => {
    const anchors = await chain(803, 4);
    const first = await saved(803, sql`seq = 1`);
    await db().execute(sql`delete from audit_log where subscription_id = 803 and seq = 1`);
    // Retention's own move: the start is row 2, the hash before it row 2's prev_hash.
    await db().execute(
      sql`update audit_heads h set first_seq = 2, first_prev_hash = l.prev_hash from audit_log l
          where h.subscription_id = 803 and l.subscription_id = 803 and l.seq = 2`,
    );
    // The row put back as written: unsealed, its content hash and nonce as the portal made them.
    await putBack(first.map((r) => ({ ...r, seq: null, prev_hash: null, hash: null })));
    const { anchors: after, sink } = collect();
    const result = await verifyAudit(db(), { subscriptionId: 803, key: KEY, anchors, sink });
    // The first event now reads as the last one; the start moved past a young row is named.
    expect(await names(803)).toEqual(["Freezer 3", "Freezer 4", "Freezer 5", "Freezer 2"]);
    const named = ["2: the chain starts at row 2, but row 1 was sealed by " + anchors[0]!.at];
    expect(result.faults.map((f) => `${f.seq}: ${f.why.split(" (")[0]}`)).toEqual(named);
    expect(await faultsOf(803, [...anchors, ...after])).toEqual(named);
  });

  it("finding 4: never chains rows real retention removed and someone put back unsealed, and names them", async () => {
    const old = new Date(TEST_NOW.getTime() - 8 * YEAR_MS);
    // Rows written 8 years ago are sealed then: their anchors (sealed now, in this test) stay out.
    await chain(804, 2, old);
    const anchors = await chain(804, 2, TEST_NOW, 3);
    const gone = await saved(804, sql`seq <= 2`);
    expect(await trimAuditTrail(db(), TEST_NOW)).toBeGreaterThanOrEqual(2);
    expect(await faultsOf(804, anchors)).toEqual([]);
    // Putting them back in their place is named (firstSeq of a later anchor); at the end it is not.
    await putBack(gone.map((r) => ({ ...r, seq: null, prev_hash: null, hash: null })));
    const { anchors: after, sink } = collect();
    await sealAll(db(), KEY, true, sink);
    expect(await names(804)).toEqual(["Freezer 4", "Freezer 5"]);
    // Rows eight years older than the chain's newest row are left unchained, and named.
    expect(after).toEqual([]);
    const { faults } = await check(804, [...anchors, ...after]);
    expect(faults).toHaveLength(2);
    for (const f of faults)
      expect(f.why).toMatch(
        /^a row not chained \(id \d+\), written 2018-.* older than the chain's newest row/,
      );
  });

  it("finding 5: never shows a made-up row at seq 0 or below to Administrators, and names it", async () => {
    const anchors = await chain(805, 2);
    for (const seq of [0, -1])
      await db().execute(
        sql`insert into audit_log (subscription_id, seq, at, actor_kind, actor_id, actor_label, action,
              entity_type, entity_id, device_id, old, new, prev_hash, hash, content_hash, nonce)
            values (805, ${seq}, ${TEST_NOW}, 'user', 2, 'ceo@example.com', 'device.delete', 3, '5', 5,
              ${JSON.stringify({ name: "Freezer 1" })}::jsonb, null, 'forged', 'forged', 'forged', ${`n${seq}`})`,
      );
    const shown = await auditPage(db(), 805, {}, null, 100);
    expect(shown.map((e) => [e.seq, e.actor, e.action])).toEqual([
      [2, "admin@example.com", "device.rename"],
      [1, "admin@example.com", "device.rename"],
    ]);
    const named = [
      "-1: it repeats or goes back in the sequence",
      "-1: its content does not match its hash",
      "0: it repeats or goes back in the sequence",
      "0: its content does not match its hash",
    ];
    expect(await faultsOf(805, anchors)).toEqual(named);
    // Across all chains too.
    const all = (await verifyAudit(db(), { key: KEY, anchors })).faults.filter(
      (f) => f.subscriptionId === 805,
    );
    expect(all.map((f) => `${f.seq}: ${f.why.split(" (")[0]}`)).toEqual(named);
  });

  it("finding 6: keeps the true head when rows are reordered before the period's write, and names the reorder", async () => {
    const path = join(dir, "window", "anchors.jsonl");
    const store = fileAnchors(path, { everyMs: 3_600_000, key: KEY });
    for (let i = 1; i <= 3; i++) {
      await inTransaction(db(), (tx) => appendAudit(tx, rename(806, i), TEST_NOW, KEY));
      await sealAll(db(), KEY, true, store);
    }
    await store.flush(); // the period's write: head 3
    for (let i = 4; i <= 5; i++) {
      await inTransaction(db(), (tx) => appendAudit(tx, rename(806, i), TEST_NOW, KEY));
      await sealAll(db(), KEY, true, store);
    }
    const honest = (await store.read()).filter((a) => a.subscriptionId === 806).at(-1)!;
    expect(honest.seq).toBe(5); // the true head, in memory: it could still name what follows
    // The attack, before the next write: rows 4 and 5 unsealed and swapped, the head moved back.
    await db().execute(
      sql`update audit_log set seq = null, prev_hash = null, hash = null where subscription_id = 806 and seq >= 4`,
    );
    await db().execute(
      sql`update audit_log set id = id + 1000000 where subscription_id = 806 and seq is null and new->>'name' = 'Freezer 5'`,
    );
    await db().execute(
      sql`update audit_heads set seq = 3, hash = ${await hashAt(806, 3)} where subscription_id = 806`,
    );
    await sealAll(db(), KEY, true, store); // the portal's sweep re-chains them, seq 5 again
    await store.close();
    const written = parseAnchors(readFileSync(path, "utf8"), KEY).anchors.filter(
      (a) => a.subscriptionId === 806,
    );
    // The true head 5 is written beside the re-chained one (same seq), and the reorder is named.
    expect(written.map((a) => a.seq)).toEqual([3, 5, 5]);
    expect(written[1]!.hash).toBe(honest.hash);
    expect(written[2]!.hash).not.toBe(honest.hash);
    expect(await names(806)).toEqual(["Freezer 2", "Freezer 3", "Freezer 4", "Freezer 6", "Freezer 5"]);
    expect(await faultsOf(806, written)).toEqual([
      "5: the chain up to here is not the one sealed by " + honest.at,
    ]);
  });

  it("caught: the same reorder after the period's write is named, though the portal anchors the new head too", async () => {
    const path = join(dir, "after", "anchors.jsonl");
    const store = fileAnchors(path, { everyMs: 3_600_000, key: KEY });
    for (let i = 1; i <= 5; i++) {
      await inTransaction(db(), (tx) => appendAudit(tx, rename(807, i), TEST_NOW, KEY));
      await sealAll(db(), KEY, true, store);
    }
    await store.flush();
    await db().execute(
      sql`update audit_log set seq = null, prev_hash = null, hash = null where subscription_id = 807 and seq >= 4`,
    );
    await db().execute(
      sql`update audit_log set id = id + 1000000 where subscription_id = 807 and seq is null and new->>'name' = 'Freezer 5'`,
    );
    await db().execute(
      sql`update audit_heads set seq = 3, hash = ${await hashAt(807, 3)} where subscription_id = 807`,
    );
    await sealAll(db(), KEY, true, store);
    await store.close();
    const written = (await fileAnchors(path, { everyMs: 3_600_000, key: KEY }).read()).filter(
      (a) => a.subscriptionId === 807,
    );
    expect(written.map((a) => a.seq)).toEqual([5, 5]);
    expect(await faultsOf(807, written)).toEqual([
      "5: the chain up to here is not the one sealed by " + written[0]!.at,
    ]);
  });

  it("caught: a head set to an anchored hash at another seq (new rows then chain after it)", async () => {
    const anchors = await chain(808, 5);
    await db().execute(sql`delete from audit_log where subscription_id = 808 and seq > 3`);
    await db().execute(
      sql`update audit_heads set seq = 3, hash = ${anchors[4]!.hash} where subscription_id = 808`,
    );
    await chain(808, 2, TEST_NOW, 6);
    const faults = await faultsOf(808, anchors);
    expect(faults[0]).toBe("4: it does not follow the row before it");
    expect(faults).toContain("4: the chain up to here is not the one sealed by " + anchors[3]!.at);
  });

  it("caught: rows cut back and the chain grown again past the anchored seq (new real events)", async () => {
    const anchors = await chain(809, 5);
    await db().execute(sql`delete from audit_log where subscription_id = 809 and seq >= 4`);
    await db().execute(
      sql`update audit_heads set seq = 3, hash = ${await hashAt(809, 3)} where subscription_id = 809`,
    );
    await chain(809, 3, TEST_NOW, 10);
    expect(await faultsOf(809, anchors)).toEqual([
      "4: the chain up to here is not the one sealed by " + anchors[3]!.at,
    ]);
  });

  it("caught: start moved back with no rows (first_seq lowered, first_prev_hash genesis) and a huge seq", async () => {
    const anchors = await chain(810, 3);
    await db().execute(sql`delete from audit_log where subscription_id = 810 and seq = 1`);
    await db().execute(
      sql`update audit_heads set first_seq = 1, first_prev_hash = ${GENESIS} where subscription_id = 810`,
    );
    expect(await faultsOf(810, anchors)).toEqual(["2: rows 1–1 are missing before it"]);
    const big = await saved(810, sql`seq = 3`);
    await putBack(big.map((r) => ({ ...r, id: 9_000_000_001, seq: "9223372036854775807" })));
    const faults = await faultsOf(810, anchors);
    expect(faults.length).toBeGreaterThanOrEqual(2);
    expect(faults.join("\n")).toMatch(/missing before it/);
  });

  it("caught: a copy of a sealed row chained at the end is named as a copy", async () => {
    const anchors = await chain(811, 3);
    const copy = await saved(811, sql`seq = 2`);
    await putBack(copy.map((r) => ({ ...r, id: 9_000_000_002, seq: null, prev_hash: null, hash: null })));
    await sealAll(db(), KEY, true);
    expect(await faultsOf(811, anchors)).toEqual([
      "4: it and row 2 are the same row word for word: one of them is a copy added outside the portal",
    ]);
  });

  it("caught: a chain emptied with its head at 0, checked alone and with all the others", async () => {
    const anchors = await chain(812, 3);
    await db().execute(sql`delete from audit_log where subscription_id = 812`);
    await db().execute(sql`update audit_heads set seq = 0, hash = ${GENESIS} where subscription_id = 812`);
    expect(await faultsOf(812, anchors)).toEqual(["3: rows 1–3 had been sealed by " + anchors[2]!.at]);
    const all = await verifyAudit(db(), { key: KEY, anchors });
    expect(all.faults.filter((f) => f.subscriptionId === 812)).toHaveLength(1);
    // Another subscription's anchors never judge this chain when it is checked alone.
    const other = anchors.map((a) => ({ ...a, subscriptionId: 9999 }));
    expect(await faultsOf(801, other)).toEqual([]);
  });

  it("caught (no false alarm): sealers racing on one chain and one anchor store leave anchors that match", async () => {
    const path = join(dir, "race", "anchors.jsonl");
    const store = fileAnchors(path, { everyMs: 3_600_000, key: KEY });
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await inTransaction(db(), (tx) => appendAudit(tx, rename(813, i + 1), TEST_NOW, KEY));
        await Promise.all([
          sealChain(db(), 813, KEY, i % 2 === 0, store),
          sealAll(db(), KEY, false, store),
          i % 3 === 0 ? store.flush() : Promise.resolve(),
        ]);
      }),
    );
    await sealAll(db(), KEY, true, store);
    await store.close();
    const written = parseAnchors(readFileSync(path, "utf8"), KEY).anchors;
    expect(written.at(-1)).toMatchObject({ subscriptionId: 813, seq: 12 });
    expect(await faultsOf(813, written)).toEqual([]);
  });
});

describe("attacks on the anchor lines and files", () => {
  const anchor = (subscriptionId: number, seq: number): AuditAnchor => ({
    subscriptionId,
    seq,
    hash: "a".repeat(64),
    firstSeq: 1,
    at: "2026-11-29T10:00:00.000Z",
  });
  const forged = JSON.stringify({ what: "audit anchor", ...anchor(1, 99) });

  it("caught: a web user's text in the request log or an error line never reads as an anchor (no key needed)", () => {
    // The request line's only texts are the id, the method and the route pattern, each JSON-escaped.
    const lines = [
      lineOf(forged, forged, forged, 200, 1),
      lineOf(`x\n${forged}`, `GET\n${forged}`, `/a\n${forged}`, 404, 1),
      JSON.stringify({ level: "error", requestId: "r", route: "/x", error: `Error: ${forged}\n${forged}` }),
      JSON.stringify({ level: "warn", requestId: "r", saml: "bad", detail: `\n${forged}\r\n` }),
    ].join("\n");
    expect(lines).toContain("audit anchor");
    expect(parseAnchors(lines)).toEqual({ anchors: [], unmarked: 0 });
  });

  it("caught under AUDIT_KEY; without it a line in a log (or a file) raises false alarms only", () => {
    expect(parseAnchors(forged, KEY)).toEqual({ anchors: [], unmarked: 1 });
    expect(parseAnchors(forged).anchors).toEqual([anchor(1, 99)]);
  });

  it("finding 7: prints an anchor to the log even when its file write fails (the log is the second copy)", async () => {
    const path = join(dir, "full");
    mkdirSync(path); // the write fails, as on a full disk (ENOSPC) or a read-only mount
    const printed: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((s: unknown) => void printed.push(String(s)));
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const store = fileAnchors(path, { everyMs: 3_600_000, log: true, key: KEY });
      store.note(anchor(7, 1));
      await store.flush();
      store.note(anchor(7, 2));
      await store.close(); // shutdown: the head is only in memory, and the process ends
      expect(parseAnchors(printed.join("\n"), KEY).anchors).toEqual([anchor(7, 1), anchor(7, 2)]);
      expect(error).toHaveBeenCalledTimes(2);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });

  it("finding 8: reads an anchor file of any size a piece at a time, past lines too long to be anchors", async () => {
    const path = join(dir, "big", "anchors.jsonl");
    mkdirSync(join(dir, "big"));
    // Sparse: 64 MiB with no line break, then a real anchor line.
    writeFileSync(path, "");
    truncateSync(path, 64 * 1024 * 1024);
    const store = fileAnchors(path, { everyMs: 3_600_000, key: KEY });
    store.note(anchor(8, 3));
    await store.flush();
    expect(await store.read()).toEqual([anchor(8, 3)]);
    await store.close();
    rmSync(path);
  });

  it("finding 9: reads anchors in a wrapped log line, after a prefix with a brace, or after a line a failed write cut short", () => {
    const good = JSON.stringify({ what: "audit anchor", ...anchor(2, 5) });
    // Docker's json-file log, and a collector's prefix holding a brace: the anchor is inside.
    const docker = JSON.stringify({ log: `${good}\n`, stream: "stdout", time: "2026-11-29T10:00:00Z" });
    const prefixed = `host=web-1 {pid=42} ${good}`;
    // A write cut short (ENOSPC), then the retry's lines appended after it on the same line.
    const glued = `${good.slice(0, 40)}${good}`;
    for (const text of [docker, prefixed, glued])
      expect(parseAnchors(text, undefined)).toEqual({ anchors: [anchor(2, 5)], unmarked: 0 });
    expect(parseAnchors(good)).toEqual({ anchors: [anchor(2, 5)], unmarked: 0 });
  });

  it("caught: the CLI stops (exit 2) on an anchor file it cannot read, before it says anything is intact", () => {
    const data = join(dir, "cli");
    mkdirSync(data);
    const { DATABASE_URL: _u, AUDIT_ANCHOR_FILE: _f, ...env } = process.env;
    const run = spawnSync(
      process.execPath,
      ["scripts/audit.ts", "verify", "--anchors", join(dir, "no-such-file.jsonl")],
      { env: { ...env, DATA_DIR: data }, encoding: "utf8" },
    );
    expect(run.status).toBe(2);
    expect(run.stderr + run.stdout).toMatch(/Cannot read/);
    expect(run.stdout).not.toMatch(/Intact/);
  });
});
