import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { browser } from "./client.ts";
import { deviceId, ORIGIN, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

/*
 * Attack 1130 on the audit trail: its routes' input (filters, export, keyset), who they let in,
 * and whose rows they show. Each test asserts what should hold; a failing one is a finding.
 */

const LIST = "/api/v1/audit";
const CSV = "/api/v1/audit/export.csv";
const VERIFY = "/api/v1/audit/verify";

describe("attack 1130: the audit routes' input", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const admin = () => signedIn(ctx, "admin@example.com");

  /** Never a 500 or a stack trace: a 200 or a 400 with a message. */
  const sane = async (res: Response, what: string) => {
    const text = await res.clone().text();
    expect([200, 400], `${what}: ${res.status} ${text.slice(0, 300)}`).toContain(res.status);
    expect(text, what).not.toMatch(/\bat .*\.ts:\d+|Error: |stack|PGlite|postgres/i);
    if (res.status === 400) expect(JSON.parse(text).data, what).toBeTruthy();
    return res.status;
  };

  it("answers every odd filter with a 200 or a clear 400, on the viewer and the export", async () => {
    const b = await admin();
    const odd = [
      "deviceId=-1",
      "deviceId=0",
      "deviceId=1.5",
      "deviceId=1e3",
      "deviceId=0x10",
      "deviceId=99999999999999999999",
      "deviceId=2147483648",
      "deviceId=%20",
      "deviceId=",
      "deviceId=1&deviceId=abc",
      "deviceId=abc&deviceId=1",
      "before=-5",
      "before=0",
      "before=2147483648",
      "before=99999999999",
      "from=-1",
      "from=99999999999",
      "from=999999999999",
      "to=0",
      "from=2000000000&to=1",
      "from=2026-11-01",
      "from=1e9",
      "from=%E2%80%8B1",
      `actor=${"a".repeat(255)}`,
      `actor=${"a".repeat(100_000)}`,
      `actor=${encodeURIComponent("' or 1=1 --")}`,
      `actor=${encodeURIComponent("ü€😀ñ\u202eabc")}`,
      `actor=${encodeURIComponent("%")}`,
      `actor=${encodeURIComponent("_")}`,
      "actor=%C3",
      "actor=%00",
      "actor=a%00b",
      "actor=%ED%A0%80",
      "action=device.%25",
      "action=device._",
      "action=..",
      "action=" + "a".repeat(65),
      "action=DEVICE",
      "action=device%0Arename",
      "timezone=Mars/Base",
      "timezone=%00",
      "timezone=" + "Europe/".repeat(1000),
      "timezone=../../etc/passwd",
      "unknown=1",
      "deviceId[]=1",
      "deviceId[0]=1",
    ];
    for (const q of odd) {
      await sane(await b.get(`${LIST}?${q}`), `list ${q.slice(0, 80)}`);
      const res = await b.get(`${CSV}?${q}`);
      await sane(res, `csv ${q.slice(0, 80)}`);
    }
  });

  // The edge's NUL check (http/input.ts brokenQueryField) splits a pair with `split("=", 2)`,
  // which drops what follows a second '='; a NUL there is still refused (held).
  it("refuses a NUL hidden after a second '=' in a filter with a 400, not a database error", async () => {
    const b = await admin();
    for (const path of [`${LIST}?actor=a=%00`, `${CSV}?actor=a=%00`, `${LIST}?actor=x=y%00z`]) {
      const res = await b.get(path);
      const text = await res.text();
      expect(res.status, `${path}: ${text.slice(0, 200)}`).toBe(400);
    }
  });

  it("answers a reversed range and a range in the far future with no rows, not an error", async () => {
    const b = await admin();
    const res = await b.get(`${LIST}?from=2000000000&to=1000000000`);
    expect(res.status).toBe(200);
    expect((await res.json()).data.entries).toEqual([]);
    const far = await b.get(`${LIST}?from=99999999999`);
    expect(far.status).toBe(200);
    expect((await far.json()).data.entries).toEqual([]);
  });

  it("takes filters as text, never as SQL: an actor with quotes and LIKE wildcards matches nothing", async () => {
    const b = await admin();
    const id = await deviceId(db(), "Lab Base Station");
    await b.json(`/api/v1/device-data/update-device/${id}`, { name: "Renamed" }, "PATCH");
    for (const actor of ["%", "_%", "%@example.com", "' or ''='", "admin@example.com' --"]) {
      const res = await b.get(`${LIST}?actor=${encodeURIComponent(actor)}`);
      expect(res.status, actor).toBe(200);
      expect((await res.json()).data.entries, actor).toEqual([]);
    }
    // "device" is a family; "devic" is not a prefix match.
    const fam = await (await b.get(`${LIST}?action=devic`)).json();
    expect(fam.data.entries).toEqual([]);
  });

  it("refuses every audit route to a signed-out caller and to each role but Administrator", async () => {
    const out = browser(ctx.app, ORIGIN);
    for (const [path, method] of [
      [LIST, "GET"],
      [CSV, "GET"],
      [`${CSV}?timezone=UTC`, "GET"],
      [VERIFY, "POST"],
    ] as const) {
      const res = method === "GET" ? await out.get(path) : await out.json(path, {});
      expect([401, 403], `${method} ${path}`).toContain(res.status);
      expect(await res.text()).not.toContain("session.signin");
    }
    for (const email of [
      "manager@example.com",
      "viewer@example.com",
      "provisioner@example.com",
      "billing@example.com",
    ]) {
      const b = await signedIn(ctx, email);
      for (const q of ["", "?deviceId=1", "?actor=admin@example.com"]) {
        const res = await b.get(`${LIST}${q}`);
        expect(res.status, email).toBe(403);
        expect(await res.text()).not.toContain("admin@example.com");
        expect((await b.get(`${CSV}${q}`)).status, email).toBe(403);
      }
      expect((await b.json(VERIFY, {})).status, email).toBe(403);
    }
    // A refused export writes no row.
    const [n] = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_log where action = 'audit.export'`,
    );
    expect(n!.n).toBe(0);
  });

  it("records an export's device filter by the device's name, and another subscription's by its id only", async () => {
    const b = await admin();
    const own = await deviceId(db(), "Lab Base Station");
    const [foreign] = await rows<{ id: number }>(
      db(),
      sql`select d.id from devices d join subscriptions s on s.id = d.subscription_id
          where s.name like 'Northwind%' order by d.id limit 1`,
    );
    await (await b.get(`${CSV}?deviceId=${own}`)).text();
    await (await b.get(`${CSV}?deviceId=${foreign!.id}`)).text();
    const recorded = await rows<{ new: Record<string, unknown> }>(
      db(),
      sql`select new from audit_log where action = 'audit.export' order by id desc limit 2`,
    );
    expect(recorded.map((r) => r.new["device"])).toEqual([`#${foreign!.id}`, "Lab Base Station"]);
    expect(recorded.every((r) => !("deviceId" in r.new))).toBe(true);
  });

  it("shows no other subscription's rows whatever the filter names: their device, their person", async () => {
    const ours = await admin();
    const theirs = await signedIn(ctx, "owner@northwind.example.com");
    const [foreign] = await rows<{ id: number }>(
      db(),
      sql`select d.id from devices d join subscriptions s on s.id = d.subscription_id
          where s.name like 'Northwind%' order by d.id limit 1`,
    );
    expect(foreign).toBeDefined();
    // Northwind's owner renames their device: a row in their chain.
    const renamed = await theirs.json(
      `/api/v1/device-data/update-device/${foreign!.id}`,
      { name: "Northwind secret name" },
      "PATCH",
    );
    expect(renamed.status).toBe(200);
    for (const q of [
      `deviceId=${foreign!.id}`,
      "actor=owner@northwind.example.com",
      "action=device.rename",
      "",
    ]) {
      const list = await ours.get(`${LIST}?${q}`);
      expect(list.status).toBe(200);
      // Our own export rows carry the filter as typed; every other row must be ours.
      const data = (await list.json()).data as { entries: { action: string }[]; actors: string[] };
      const text = JSON.stringify(data.entries.filter((e) => e.action !== "audit.export"));
      expect(text, q).not.toContain("Northwind secret name");
      expect(text, q).not.toContain("owner@northwind.example.com");
      expect(data.actors, q).toEqual(["admin@example.com"]);
      const csv = (await (await ours.get(`${CSV}?${q}`)).text())
        .split("\r\n")
        .filter((l) => !l.includes("Exported the audit trail"))
        .join("\n");
      expect(csv, q).not.toContain("Northwind secret name");
      expect(csv, q).not.toContain("owner@northwind.example.com");
    }
    // Their keyset: a `before` past our head shows only ours.
    const all = (await (await ours.get(`${LIST}?before=2147483647`)).json()).data;
    expect(all.actors).not.toContain("owner@northwind.example.com");
  });

  // A GET that writes: the export appends an `audit.export` row with the filters as typed. The
  // session cookie is SameSite=Lax, so another site's link (a top-level navigation) carries it,
  // and the cross-site check (http/origin.ts) looks at POST/PUT/PATCH/DELETE only. Any page can
  // thus make an Administrator's browser write a row in their name with up to 254 characters
  // of the page's text ("Filters: Person <text>").
  it("writes no audit row for an export another site's page started", async () => {
    const b = await admin();
    const res = await b.get(
      `${CSV}?actor=${encodeURIComponent("Data sent to evil.example by admin, approved")}`,
    );
    // Headers a browser sends on a cross-site top-level navigation (Lax cookies go along).
    const cross = await ctx.app.request(
      `${ORIGIN}${CSV}?actor=${encodeURIComponent("planted by another site")}`,
      {
        headers: {
          cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "),
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          referer: "https://evil.example/",
        },
      },
    );
    expect(res.status).toBe(200);
    await cross.text();
    const planted = await rows<{ t: string }>(
      db(),
      sql`select new::text as t from audit_log where action = 'audit.export' and new::text like '%planted%'`,
    );
    expect(planted).toEqual([]);
  });
});
