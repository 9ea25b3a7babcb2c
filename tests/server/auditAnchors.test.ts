import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction, rows, type Database } from "../../server/db/client.ts";
import { appendAudit } from "../../server/data/audit.ts";
import { sealAll } from "../../server/data/auditSeal.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import type { AuditAnchor } from "../../server/core/auditChain.ts";
import { fileAnchors, parseAnchors } from "../../server/services/auditAnchors.ts";
import { deviceId, signedIn } from "./deviceTestKit.ts";
import { openTestDatabase, TEST_NOW, useTestApp } from "./helpers.ts";
import { anchorKit, KEY, rename } from "./auditAnchorKit.ts";

const dir = mkdtempSync(join(tmpdir(), "anchors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The attacks an attack review proved on the chain alone (docs/decisions.md, "Anchors"): each
// is made by someone who can write the database, and each verifies without the anchors.
describe("the audit chains' heads kept outside the database", () => {
  let database: Database & { drop(): Promise<void> };
  const db = () => database.db;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  const { chain, check, faultsOf: whys, hashAt } = anchorKit(db);

  it("tells the sealer's every new head, with the seq, hash and start it left", async () => {
    const anchors = await chain(701, 3);
    expect(anchors.map((a) => a.seq)).toEqual([1, 2, 3]);
    expect(anchors[2]).toMatchObject({ subscriptionId: 701, hash: await hashAt(701, 3), firstSeq: 1 });
    expect((await check(701, anchors)).faults).toEqual([]);
  });

  it("names a chain whose last rows were unsealed, one deleted, and chained again", async () => {
    const anchors = await chain(702, 5);
    await db().execute(
      sql`update audit_log set seq = null, prev_hash = null, hash = null where subscription_id = 702 and seq >= 3`,
    );
    await db().execute(
      sql`delete from audit_log where subscription_id = 702 and seq is null and new->>'name' = 'Freezer 5'`,
    );
    await db().execute(
      sql`update audit_heads set seq = 2, hash = ${await hashAt(702, 2)} where subscription_id = 702`,
    );
    // The portal's own sealer chains what is left again: the chain alone fits.
    expect((await check(702)).faults).toEqual([]);
    // Row 3 is chained as before; row 5 takes seq 4, and seq 5 is gone.
    expect(await whys(702, anchors)).toEqual([
      "4: the chain up to here is not the one sealed by " + anchors[3]!.at,
      "5: row 5 had been sealed by " + anchors[4]!.at,
    ]);
  });

  it("names rows reordered and chained again, though as many as before", async () => {
    const anchors = await chain(703, 4);
    await db().execute(
      sql`update audit_log set seq = null, prev_hash = null, hash = null where subscription_id = 703 and seq >= 2`,
    );
    await db().execute(
      sql`update audit_log set id = id + 1000000 where subscription_id = 703 and seq is null and new->>'name' = 'Freezer 3'`,
    );
    await db().execute(
      sql`update audit_heads set seq = 1, hash = ${await hashAt(703, 1)} where subscription_id = 703`,
    );
    expect((await check(703)).faults).toEqual([]);
    expect(await whys(703, anchors)).toEqual([
      "2: the chain up to here is not the one sealed by " + anchors[1]!.at,
    ]);
  });

  it("names rows cut off the end with the head moved back", async () => {
    const anchors = await chain(704, 4);
    await db().execute(sql`delete from audit_log where subscription_id = 704 and seq > 2`);
    await db().execute(
      sql`update audit_heads set seq = 2, hash = ${await hashAt(704, 2)} where subscription_id = 704`,
    );
    expect((await check(704)).faults).toEqual([]);
    expect(await whys(704, anchors)).toEqual(["4: rows 3–4 had been sealed by " + anchors[3]!.at]);
  });

  it("names rows retention removed and someone put back, and a chain removed whole", async () => {
    await chain(705, 2);
    const kept = await rows<Record<string, unknown>>(
      db(),
      sql`select * from audit_log where subscription_id = 705 and seq = 1`,
    );
    // Retention's own move (flows/auditRetention.ts): the first row goes, the head keeps where the rest starts.
    await db().execute(sql`delete from audit_log where subscription_id = 705 and seq = 1`);
    await db().execute(
      sql`update audit_heads set first_seq = 2, first_prev_hash = ${kept[0]!["hash"] as string} where subscription_id = 705`,
    );
    const anchors: AuditAnchor[] = [];
    await inTransaction(db(), (tx) => appendAudit(tx, rename(705, 3), TEST_NOW, KEY));
    await sealAll(db(), KEY, true, { note: (a) => void anchors.push(a) });
    expect(anchors).toMatchObject([{ seq: 3, firstSeq: 2 }]);
    expect((await check(705, anchors)).faults).toEqual([]);
    await db().execute(
      sql`insert into audit_log select * from jsonb_populate_recordset(null::audit_log, ${JSON.stringify(kept)}::jsonb)`,
    );
    await db().execute(
      sql`update audit_heads set first_seq = 1, first_prev_hash = ${"0".repeat(64)} where subscription_id = 705`,
    );
    expect((await check(705)).faults).toEqual([]);
    expect(await whys(705, anchors)).toEqual(["1: row 1 had been removed by retention by " + anchors[0]!.at]);

    await db().execute(sql`delete from audit_log where subscription_id = 705`);
    await db().execute(sql`delete from audit_heads where subscription_id = 705`);
    expect(await whys(705, anchors)).toEqual(["3: rows 1–3 had been sealed by " + anchors[0]!.at]);
    expect((await verifyAudit(db(), { key: KEY, anchors })).faults).toContainEqual(
      expect.objectContaining({ subscriptionId: 705, seq: 3 }),
    );
  });
});

describe("an anchor file", () => {
  const anchor = (subscriptionId: number, seq: number): AuditAnchor => ({
    subscriptionId,
    seq,
    hash: String(seq % 10).repeat(64),
    firstSeq: 1,
    at: `2026-11-29T10:00:0${seq % 10}.000Z`,
  });

  it("keeps one line per chain and period, its newest head, and reads back what it wrote and what waits", async () => {
    const path = join(dir, "one", "anchors.jsonl");
    const store = fileAnchors(path, { everyMs: 3_600_000 });
    for (const seq of [1, 2, 3]) store.note(anchor(1, seq));
    store.note(anchor(2, 7));
    store.note(anchor(1, 2)); // an older head noted late does not replace the newer
    await store.flush();
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
    store.note(anchor(1, 4));
    expect(await store.read()).toEqual([anchor(1, 3), anchor(2, 7), anchor(1, 4)]);
    await store.close();
    expect(parseAnchors(readFileSync(path, "utf8")).anchors).toEqual([
      anchor(1, 3),
      anchor(2, 7),
      anchor(1, 4),
    ]);
  });

  it("reads its lines out of a portal's log among other lines, and passes over what is not one", () => {
    const good = JSON.stringify({ what: "audit anchor", ...anchor(3, 5) });
    const log = [
      '{"level":"info","what":"request","path":"/"}',
      `2026-11-29 10:00:05 ${good}`,
      '{"what":"audit anchor","subscriptionId":3,"seq":-1,"hash":"x","firstSeq":1,"at":"now"}',
      '{"what":"audit anchor", broken',
      JSON.stringify({ what: "audit anchor", ...anchor(3, 6), hash: "Z".repeat(64) }),
    ].join("\n");
    expect(parseAnchors(log)).toEqual({ anchors: [anchor(3, 5)], unmarked: 0 });
  });

  it("marks its lines under AUDIT_KEY, and passes over a line without the key's mark", async () => {
    const path = join(dir, "marked.jsonl");
    const store = fileAnchors(path, { everyMs: 3_600_000, key: KEY });
    store.note(anchor(5, 2));
    await store.close();
    const written = readFileSync(path, "utf8");
    expect(JSON.parse(written).mark).toMatch(/^[0-9a-f]{64}$/);
    // A line slipped into a log by someone without the key: same form, no mark or a made-up one.
    const slipped = [
      JSON.stringify({ what: "audit anchor", ...anchor(5, 9) }),
      JSON.stringify({ what: "audit anchor", ...anchor(5, 8), mark: "0".repeat(64) }),
    ].join("\n");
    expect(parseAnchors(written + slipped, KEY)).toEqual({ anchors: [anchor(5, 2)], unmarked: 2 });
    expect(parseAnchors(written, "another-key-of-thirty-two-chars!!").anchors).toEqual([]);
    expect(await fileAnchors(path, { everyMs: 3_600_000, key: KEY }).read()).toEqual([anchor(5, 2)]);
  });

  it("says so in the log when it cannot write, and keeps the head for the next write", async () => {
    const path = join(dir, "blocked");
    const store = fileAnchors(path, { everyMs: 3_600_000 });
    // A directory where the file should be: the write fails.
    mkdirSync(path);
    store.note(anchor(4, 1));
    await expect(store.flush()).resolves.toBeUndefined();
    await expect(store.read()).rejects.toThrow(/EISDIR/);
    rmSync(path, { recursive: true });
    await store.close();
    expect(parseAnchors(readFileSync(path, "utf8")).anchors).toEqual([anchor(4, 1)]);
  });
});

describe("Check integrity with this instance's anchors", () => {
  const path = join(dir, "portal", "anchors.jsonl");
  const anchors = fileAnchors(path, { everyMs: 3_600_000 });
  const ctx = useTestApp({ seeded: true, anchors });
  afterAll(() => anchors.close());

  it("names a chain cut back in the database, which the chain alone does not show", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    for (const name of ["One", "Two", "Three"])
      await admin.json(`/api/v1/device-data/update-device/${id}`, { name }, "PATCH");
    const intact = (await (await admin.json("/api/v1/audit/verify", {})).json()).data;
    expect(intact).toMatchObject({ intact: true, faults: 0, anchoredAt: expect.stringMatching(/^\d{4}-/) });
    await anchors.flush();
    const [head] = await rows<{ sub: number; seq: number }>(
      ctx.database.db,
      sql`select subscription_id as sub, seq from audit_heads where seq > 0 order by seq desc limit 1`,
    );
    const { sub, seq } = head!;
    await ctx.database.db.execute(sql`delete from audit_log where subscription_id = ${sub} and seq = ${seq}`);
    await ctx.database.db.execute(
      sql`update audit_heads h set seq = l.seq, hash = l.hash from audit_log l
          where h.subscription_id = ${sub} and l.subscription_id = ${sub} and l.seq = ${Number(seq) - 1}`,
    );
    const broken = (await (await admin.json("/api/v1/audit/verify", {})).json()).data;
    expect(broken).toMatchObject({ intact: false, faults: 1, firstFault: { seq: Number(seq) } });
    expect(broken.firstFault.why).toMatch(
      /^row \d+ had been sealed by .* \(anchored outside the database\) and is gone/,
    );
  });
});
