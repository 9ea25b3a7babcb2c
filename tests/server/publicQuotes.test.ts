import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { DEMO, demoHexToken } from "../../server/seed/demo.ts";
import { QuoteDetailSchema } from "../../src/api/quotes.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const quotePath = (id: string) => `/api/v1/quotes/public/${id}`;
const DAY = 86_400_000;

/** Unknown, malformed and near-miss ids: each must answer the very same 404. */
const MISSES = [
  "QUO-99999",
  "99999",
  "QUO-0",
  "QUO-abc",
  "QUO-1001-x",
  "99999999999",
  "QUO-2147483648",
  "ORD-1001",
  DEMO.openQuoteToken.toUpperCase(),
  DEMO.openQuoteToken.slice(1),
  `${DEMO.openQuoteToken}0`,
  demoHexToken("no-such-quote"),
  "x".repeat(3000),
  "QUO-%201001x",
];

describe("the public quote", () => {
  const ctx = useTestApp({ seeded: true });
  const quote = async (id: string, b: Browser = browser(ctx.app, ORIGIN)) => {
    const res = await b.get(quotePath(id));
    const text = await res.text();
    expect([id, res.status]).toEqual([id, 200]);
    return { text, details: JSON.parse(text).data.quoteDetails };
  };

  it("shows only the summary card for QUO-{n} and {n}: no detail, token, addresses or prices", async () => {
    for (const id of ["QUO-1001", "quo-1001", "1001"]) {
      const { text, details } = await quote(id);
      expect(details).toEqual({
        id: 1001,
        quoteNumber: "QUO-1001",
        productFamily: "Environmental Monitoring",
        status: "Open",
        statusType: "Open",
        isOpen: true,
        createdAt: TEST_NOW.getTime() / 1000 - 5 * 86_400,
        expiresAt: TEST_NOW.getTime() / 1000 + 25 * 86_400,
        payable: false,
        guestToken: null,
        memberPath: null,
        // The token-only fields, withheld.
        ...Object.fromEntries(Object.keys(QuoteDetailSchema.shape).map((k) => [k, null])),
      });
      for (const secret of ["line1", "listPrice", "Research Park", "Dana", DEMO.openQuoteToken])
        expect(text).not.toContain(secret);
    }
  });

  it("shows the full quote with its token link: detail, guest token and whether it can be paid", async () => {
    const { details } = await quote(DEMO.openQuoteToken);
    expect(details).toMatchObject({ id: 1001, payable: true, guestToken: DEMO.openQuoteToken });
    expect(details).toMatchObject({
      contactName: "Dana Whitfield",
      shippingAddress: { line1: "100 Research Park Dr" },
      productSpecialist: { name: "Sam Rivera", phone: "800-555-0199", phoneExtension: "214" },
      shippingMethod: "2nd Day Air",
    });
    const { quoteLineItemList, subtotalCents, taxCents, shippingCostCents, grandTotalCents } = details;
    expect(quoteLineItemList[0]).toHaveProperty("listPrice");
    expect(subtotalCents).toBe(
      quoteLineItemList.reduce((sum: number, l: { lineTotalCents: number }) => sum + l.lineTotalCents, 0),
    );
    expect(grandTotalCents).toBe(subtotalCents + taxCents + shippingCostCents);
  });

  it("cannot be paid when closed or expired, nor by a sequential number", async () => {
    const closed = (await quote(DEMO.closedQuoteToken)).details;
    expect([closed.status, closed.isOpen, closed.payable]).toEqual(["Closed", false, false]);
    const expired = (await quote(DEMO.expiredQuoteToken)).details;
    expect([expired.isOpen, expired.payable]).toEqual([true, false]);
    expect((await quote("QUO-1001")).details.payable).toBe(false);
  });

  it("judges expiry by the server's clock", async () => {
    const later = new Date(TEST_NOW.getTime() + 26 * DAY);
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => later });
    expect((await quote(DEMO.openQuoteToken, browser(app, ORIGIN))).details.payable).toBe(false);
  });

  it("shows 'No Address' data as null addresses", async () => {
    const { details } = await quote(demoHexToken("quote-1004"));
    expect(details).toMatchObject({ needsShipping: false, currency: 2, shippingAddress: null });
    expect(details.billingAddress).not.toBeNull();
  });

  it("answers unknown and malformed ids with identical 404s", async () => {
    for (const id of MISSES) {
      const res = await browser(ctx.app, ORIGIN).get(quotePath(id));
      expect([id.slice(0, 40), res.status]).toEqual([id.slice(0, 40), 404]);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
  });

  it("never answers 5xx to a NUL or an empty id", async () => {
    for (const id of ["%00", "QUO-%00", ""]) {
      const res = await browser(ctx.app, ORIGIN).get(quotePath(id));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("sends a signed-in member of the quote's subscription to the signed-in page, and no one else", async () => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    expect((await quote("QUO-1001", admin)).details.memberPath).toBe("/s/quotes/details/QUO-1001");
    expect((await quote(DEMO.openQuoteToken, admin)).details.memberPath).toBe("/s/quotes/details/QUO-1001");
    const other = browser(ctx.app, ORIGIN);
    await signIn(other, "owner@northwind.example.com");
    expect((await quote("QUO-1001", other)).details.memberPath).toBeNull();
    expect((await quote("QUO-1001", other)).details.signedInElsewhere).toBe(true);
    expect((await quote("QUO-1001")).details.signedInElsewhere).toBeUndefined();
    expect((await quote("QUO-1005", other)).details.memberPath).toBe("/s/quotes/details/QUO-1005");
    expect((await quote("QUO-1001")).details.memberPath).toBeNull();
  });
});

describe("the public quote's limit per client (issue 32)", () => {
  const ctx = useTestApp({ seeded: true });
  const peer = (address: string) => ({
    incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv6" } },
  });
  const read = (id: string, address: string) =>
    Promise.resolve(ctx.app.request(`${ORIGIN}${quotePath(id)}`, {}, peer(address))).then((r) => r.status);

  it("answers 60 reads by number per client in 15 minutes, parallel ones included, then 429; other clients and token links go on", async () => {
    const walk = await Promise.all(
      Array.from({ length: 70 }, (_, i) => read(`QUO-${1001 + (i % 5)}`, "2001:db8:1::1")),
    );
    expect(walk.filter((s) => s === 429)).toHaveLength(10);
    expect(walk.filter((s) => s === 200)).toHaveLength(60);
    // The same /64 is the same client; another /64 is not.
    expect(await read("QUO-1001", "2001:db8:1::2")).toBe(429);
    expect(await read("QUO-1001", "2001:db8:2::1")).toBe(200);
    for (let i = 0; i < 5; i++) expect(await read(DEMO.openQuoteToken, "2001:db8:1::1")).toBe(200);
  });

  it("counts an unknown token like a number", async () => {
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push(await read(demoHexToken(`guess-${i}`), "2001:db8:3::1"));
    expect(statuses).toEqual([...Array(60).fill(404), 429]);
  });
});
