import { NUL_REFUSED } from "../../server/http/nul.ts";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { DEMO, demoToken } from "../../server/seed/demo.ts";
import { lookupPath } from "../../src/domain/lookup.ts";
import { publicOrderRef } from "../../src/domain/order.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Attacks on the public order and quote reads, tracking and the country list (issue 8,
 * helper A8): references spelled every odd way, the full quote without its token, the
 * signed-in redirect for the wrong people, and input that might reach a 500.
 */

const ORIGIN = "http://localhost";
const REF = publicOrderRef(5003, demoToken("order-5003"));
const TOKEN = DEMO.openQuoteToken;

describe("attacks on the public reads", () => {
  const ctx = useTestApp({ seeded: true });
  const get = async (path: string, headers: Record<string, string> = {}) =>
    ctx.app.request(`${ORIGIN}${path}`, { headers: { origin: ORIGIN, ...headers } });

  it("opens no order from a reference that is almost right", async () => {
    const token = demoToken("order-5003");
    const almost = [
      `ORD-5003-${token.toLowerCase()}`,
      `ORD-5003-${token.slice(0, -1)}`,
      `ORD-5003-${token}x`,
      `ORD-5003-${token.slice(0, 8)}`,
      `ORD-5004-${token}`,
      `ORD-05003-${token}`.replace("05003", "5003 "),
      `ORD-5003--${token}`,
      `ORD-+5003-${token}`,
      `ORD-\u0665\u0660\u0660\u0663-${token}`,
      `ORD-5003-${demoToken("order-5004")}`,
      "ORD-5003-",
      "ORD-5003-%2F..%2F..",
      `ORD-5003-${"A".repeat(64)}`,
      `ORD-5003-${"A".repeat(5000)}`,
    ];
    for (const ref of almost) {
      for (const path of [`/api/v1/orders/public/${ref}`, `/api/v1/shipments/shipment-list/${ref}`]) {
        const res = await get(path);
        expect([path.slice(0, 80), res.status]).toEqual([path.slice(0, 80), 404]);
      }
    }
  });

  it("reads the order with its exact reference, in either spelling, and %-encoded", async () => {
    for (const ref of [
      REF,
      REF.replace(/^ORD-/, ""),
      REF.replace(/^ORD-/, "ord-"),
      encodeURIComponent(REF).replace("-", "%2D"),
    ])
      expect([ref, (await get(`/api/v1/orders/public/${ref}`)).status]).toEqual([ref, 200]);
  });

  it("shows no price, address, contact, specialist or token of a quote without its token", async () => {
    const spellings = [
      "QUO-1001",
      "quo-1001",
      "1001",
      "01001",
      "%20QUO-1001%20",
      "QUO-1001%0A",
      TOKEN.toUpperCase(),
      `QUO-${TOKEN}`,
      `${TOKEN}%20`,
      `%09${TOKEN}`,
      `${TOKEN.slice(0, 31)}`,
      `${TOKEN}0`,
      `${TOKEN.slice(0, 31)}g`,
    ];
    for (const id of spellings) {
      const res = await get(`/api/v1/quotes/public/${id}`);
      expect([id, res.status]).toEqual([id, expect.toSatisfy((s: number) => s === 200 || s === 404)]);
      if (res.status !== 200) continue;
      const text = await res.text();
      const { quoteDetails } = JSON.parse(text).data;
      expect([id, quoteDetails.quoteLineItemList, quoteDetails.guestToken, quoteDetails.payable]).toEqual([
        id,
        null,
        null,
        false,
      ]);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/Dana|Whitfield|Research Park|Rivera/i);
      // The token-only fields are there by name only, each null.
      expect(text).not.toMatch(
        /"(grandTotal\w*|tax\w*|subtotal\w*|quoteLineItemList|productSpecialist)":(?!null)/,
      );
    }
  });

  it("gives no signed-in path to a member of another subscription, a viewer of none, or a forged cookie", async () => {
    const other = browser(ctx.app, ORIGIN);
    await signIn(other, "owner@northwind.example.com");
    const forged = browser(ctx.app, ORIGIN);
    forged.jar.set("portal_sid", "a".repeat(43));
    for (const b of [other, forged, browser(ctx.app, ORIGIN)]) {
      for (const path of [
        `/api/v1/orders/public/${REF}`,
        "/api/v1/quotes/public/QUO-1001",
        `/api/v1/quotes/public/${TOKEN}`,
      ]) {
        const res = await b.get(path);
        expect(res.status).toBe(200);
        const data = (await res.json()).data;
        expect((data.orderDetails ?? data.quoteDetails).memberPath).toBeNull();
      }
    }
  });

  it("answers odd tracking numbers with 400 or 404, never a 500", async () => {
    const odd = [
      "%E0%A4%A",
      "%2E%2E%2F%2E%2E",
      "ÄBCDEF1",
      "1Z999AA1%20",
      "1Z999AA1%00",
      "A".repeat(41),
      "A".repeat(5000),
      "12345",
      "１２３４５６７",
      "abc%2Fdef123",
    ];
    for (const n of odd) {
      const res = await get(`/shipments/tracking-details/${n}`);
      expect([n.slice(0, 30), res.status >= 400 && res.status < 500]).toEqual([n.slice(0, 30), true]);
    }
  });

  it("answers odd lookups with 4xx, never a 500", async () => {
    const odd = [
      { id: "ORD-5003\u0000", contact: "Dana Whitfield" },
      { id: "ORD-5003", contact: "Dana\u0000Whitfield" },
      { id: "ORD-5003", contact: "\ud800" },
      { id: "ORD-5003", contact: "ﬀ".repeat(200) },
      { id: "ORD-0", contact: "Dana Whitfield" },
      { id: "ORD--1", contact: "Dana Whitfield" },
      { id: "QUO-1e3", contact: "Dana Whitfield" },
    ];
    for (const [i, fields] of odd.entries()) {
      const res = await ctx.app.request(
        `${ORIGIN}/api/v1/orders-and-quotes/public/search?${new URLSearchParams(fields)}`,
        { headers: { origin: ORIGIN } },
        { incoming: { socket: { remoteAddress: `10.44.0.${i}`, remotePort: 1, remoteFamily: "IPv4" } } },
      );
      expect([fields, res.status >= 400 && res.status < 500]).toEqual([fields, true]);
    }
    const repeated = await get(
      "/api/v1/orders-and-quotes/public/search?id=ORD-5003&id=ORD-5004&contact=x&contact[]=y",
    );
    expect(repeated.status).toBe(404);
    // Broken %-escapes are broken text, refused at the edge like a form's (decisions, 2026-11-25).
    const broken = await get("/api/v1/orders-and-quotes/public/search?contact=%ZZ&id=%E0%A4%A");
    expect(broken.status).toBe(400);
    expect((await broken.json()).data).toEqual([{ field: "contact", message: NUL_REFUSED }]);
  });

  it("keeps the lookup's redirect on this site, whatever identifier the answer carried", () => {
    for (const uri of [
      "//evil.example",
      "https://evil.example/ord",
      "/\\evil.example",
      "..%2F..%2Fgateway",
      "javascript:alert(1)",
    ]) {
      const path = lookupPath(uri);
      expect(path).toMatch(/^\/p\/(order|quote)\/[^/]+$/);
      expect(new URL(path, "https://portal.example.com").origin).toBe("https://portal.example.com");
    }
  });

  it("answers the country list the same to anyone, whatever the Host or query", async () => {
    const plain = await (await get("/order/country-list")).text();
    expect(await (await get("/order/country-list?crmId=0&x=%00")).text()).not.toContain('"crmId":0');
    expect(JSON.parse(plain).data.countryList.some((c: { crmId: number }) => c.crmId === 0)).toBe(false);
  });

  it("builds no link from a forged Host or X-Forwarded-Host (the receipt's link and the answers)", async () => {
    const app = buildApp({
      db: ctx.database.db,
      config: testConfig({ PUBLIC_ORIGIN: "https://portal.example.com", TRUST_PROXY: "1" }),
      now: () => TEST_NOW,
    });
    for (const headers of [{ host: "evil.example" }, { "x-forwarded-host": "evil.example" }]) {
      const res = await app.request(`https://portal.example.com/api/v1/orders/public/${REF}`, {
        headers: { ...headers },
      });
      expect(await res.text()).not.toContain("evil.example");
    }
  });
});
