import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { sealAll } from "../../server/data/auditSeal.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

/*
 * Attack 1130 on the audit chain under concurrency: many writers of one subscription at once,
 * the viewer and "Check integrity" running among them. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL (where writers really overlap).
 */

describe("attack 1130: the audit chain under concurrent writers", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  const acmeDevices = async () =>
    (
      await rows<{ id: number }>(
        db(),
        sql`select d.id from devices d join subscriptions s on s.id = d.subscription_id
            where s.name like 'Acme%' order by d.id`,
      )
    ).map((r) => r.id);

  it("keeps a gapless chain that verifies after 20 parallel renames of one device and of several", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const m = await signedIn(ctx, "manager@example.com");
    const ids = await acmeDevices();
    expect(ids.length).toBeGreaterThan(0);
    const one = ids[0]!;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : m).json(`/api/v1/device-data/update-device/${one}`, { name: `Same ${i}` }, "PATCH"),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        b.json(`/api/v1/device-data/update-device/${ids[i % ids.length]!}`, { name: `Many ${i}` }, "PATCH"),
      ),
    );
    expect(many.map((r) => r.status)).toEqual(Array(20).fill(200));
    await sealAll(db(), undefined);
    const [acme] = await rows<{ id: number }>(
      db(),
      sql`select id from subscriptions where name like 'Acme%'`,
    );
    const chain = await rows<{ seq: string | number; n: number }>(
      db(),
      sql`select seq from audit_log where subscription_id = ${acme!.id} order by seq`,
    );
    const seqs = chain.map((r) => Number(r.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const renames = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_log where subscription_id = ${acme!.id} and action = 'device.rename'`,
    );
    // Each rename that changed the name wrote exactly one row (a rename to the same name writes none).
    expect(renames[0]!.n).toBeGreaterThanOrEqual(20);
    expect(renames[0]!.n).toBeLessThanOrEqual(40);
    expect((await verifyAudit(db(), { subscriptionId: acme!.id })).faults).toEqual([]);
    const check = (await (await b.json("/api/v1/audit/verify", {})).json()).data;
    expect(check).toMatchObject({ intact: true, faults: 0, firstFault: null });
    expect(check.rows).toBe(seqs.length);
  });

  it("answers 'Check integrity', the viewer and the export correctly while writers run", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const ids = await acmeDevices();
    const writes = Array.from({ length: 20 }, (_, i) =>
      b.json(`/api/v1/device-data/update-device/${ids[i % ids.length]!}`, { name: `Busy ${i}` }, "PATCH"),
    );
    const checks = Array.from({ length: 8 }, () => b.json("/api/v1/audit/verify", {}));
    const reads = Array.from({ length: 4 }, () => b.get("/api/v1/audit"));
    const csvs = Array.from({ length: 4 }, () => b.get("/api/v1/audit/export.csv"));
    const [w, c, r, x] = await Promise.all([
      Promise.all(writes),
      Promise.all(checks),
      Promise.all(reads),
      Promise.all(csvs),
    ]);
    expect(w.map((res) => res.status)).toEqual(Array(20).fill(200));
    for (const res of c) {
      expect(res.status).toBe(200);
      const data = (await res.json()).data;
      expect(data, JSON.stringify(data)).toMatchObject({ intact: true, faults: 0 });
    }
    for (const res of r) expect(res.status).toBe(200);
    for (const res of x) {
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/^\uFEFF?Time \(UTC\),Person/);
    }
    // Every export is a row, and the whole chain still verifies.
    const final = (await (await b.json("/api/v1/audit/verify", {})).json()).data;
    expect(final).toMatchObject({ intact: true, faults: 0 });
    const exports = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_log where action = 'audit.export' and seq > 0`,
    );
    expect(exports[0]!.n).toBe(4);
  });

  it("pages through the viewer without a row twice or a row lost while writers append", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const ids = await acmeDevices();
    for (let i = 0; i < 250; i++)
      await b.json(
        `/api/v1/device-data/update-device/${ids[i % ids.length]!}`,
        { name: `Step ${i}` },
        "PATCH",
      );
    const seen: number[] = [];
    let next: number | null = null;
    let turn = 0;
    do {
      const page = (await (await b.get(`/api/v1/audit${next ? `?before=${next}` : ""}`)).json()).data as {
        entries: { seq: number }[];
        next: number | null;
      };
      seen.push(...page.entries.map((e) => e.seq));
      next = page.next;
      // A writer appends between pages: the keyset goes on below where it was.
      await b.json(`/api/v1/device-data/update-device/${ids[0]!}`, { name: `Between ${turn++}` }, "PATCH");
    } while (next !== null);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b2) => b2 - a));
    expect(seen.at(-1)).toBe(1);
    expect(seen).toEqual(Array.from({ length: seen[0]! }, (_, i) => seen[0]! - i));
  });
});
