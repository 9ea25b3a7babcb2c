import { describe, expect, it } from "vitest";
import { DEMO } from "../../server/seed/demo.ts";
import { quotePdf, type QuotePdfFacts } from "../../server/services/quotePdf.ts";
import { amountsOf, formatMoney } from "../../src/domain/money.ts";
import { pdfText } from "../support/pdfText.ts";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";

const NORTHWIND_QUOTE = 1005;
const EURO_QUOTE = 1004;
const pdfPath = (id: string | number) => `/quote/requested-pdf/${id}`;

describe("GET /quote/requested-pdf/{quoteId}", () => {
  const ctx = useTestApp({ seeded: true });
  const as = async (email: string) => {
    const b = browser(ctx.app);
    await signIn(b, email);
    return b;
  };
  const textOf = async (res: Response) => pdfText(Buffer.from(await res.arrayBuffer()));
  const quoteJson = async (b: Awaited<ReturnType<typeof as>>, id: number) =>
    (await (await b.get(`/api/v1/quotes/${id}`)).json()).data.quoteDetails;

  it("answers a real PDF attachment named after the quote with its number, dates, people and totals", async () => {
    const viewer = await as("viewer@example.com");
    const res = await viewer.get(pdfPath(DEMO.openQuoteId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="QUO-1001.pdf"');
    expect(res.headers.get("cache-control")).toBe("no-store");
    const bytes = Buffer.from(await res.clone().arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await textOf(res);
    const quote = await quoteJson(viewer, DEMO.openQuoteId);
    expect(text).toContain("Quote QUO-1001");
    expect(text).toContain("Device Portal");
    // The viewer's zone is UTC; quoted five days and valid 25 days from the test's now.
    expect(text).toContain("Nov 17, 2026");
    expect(text).toContain("Dec 17, 2026");
    expect(text).toContain("This quote is valid through Dec 17, 2026.");
    expect(text).toContain("Sam Rivera, 800-555-0199 ext. 214");
    expect(text).toContain("Shipping Address");
    expect(text).toContain("Billing Address");
    const first = quote.quoteLineItemList[0];
    expect(text).toContain(first.productNumber);
    expect(text).toContain(first.lineTotalDisplay);
    expect(text).toContain(formatMoney(first.lineTotalCents, 1));
    expect(text).toContain(quote.grandTotalDisplay);
    expect(text).toContain(formatMoney(quote.taxCents, 1));
  });

  it("shows a discounted line's discount and its reduced total", async () => {
    const admin = await as("admin@example.com");
    const quote = await quoteJson(admin, DEMO.openQuoteId);
    const discounted = quote.quoteLineItemList.find((i: { discount: string | null }) => i.discount === "10%");
    const lines = (await textOf(await admin.get(pdfPath(DEMO.openQuoteId)))).split("\n");
    const at = lines.indexOf(discounted.productNumber);
    expect(lines.slice(at, at + 6)).toContain(discounted.discount);
    expect(lines.slice(at, at + 6)).toContain(formatMoney(discounted.lineTotalCents, 1));
  });

  it("writes Closed for a closed quote, euros for a euro quote and 'No Address' where none is named", async () => {
    const admin = await as("admin@example.com");
    const closed = await textOf(await admin.get(pdfPath(DEMO.closedQuoteId)));
    expect(closed).toContain("Closed");
    expect(closed).toContain("This quote is closed.");
    const euro = await textOf(await admin.get(pdfPath(EURO_QUOTE)));
    // pdfkit writes the standard fonts in WinAnsi, where the euro sign is byte 0x80.
    expect(euro).toMatch(/\x80[\d,]+\.\d\d/);
    expect(euro).toContain("No Address");
    const expired = await textOf(await admin.get(pdfPath(DEMO.expiredQuoteId)));
    expect(expired).toContain("This quote expired on Nov 07, 2026.");
  });

  it("answers 404 for another subscription's quote and for a missing one, 400 for a malformed id", async () => {
    const admin = await as("admin@example.com");
    expect((await admin.get(pdfPath(NORTHWIND_QUOTE))).status).toBe(404);
    expect((await admin.get(pdfPath(999_999))).status).toBe(404);
    for (const bad of ["abc", "0", "QUO-1001x", "99999999999", "-1"]) {
      const res = await admin.get(pdfPath(bad));
      expect(res.status).toBe(400);
      expect((await res.json()).data[0].field).toBe("quoteId");
    }
  });

  it("refuses a caller who is not signed in", async () => {
    const res = await browser(ctx.app).get(pdfPath(DEMO.openQuoteId));
    expect(res.status).toBe(401);
  });

  it("cuts a long description to its column and carries many lines onto further pages", async () => {
    const item = {
      productNumber: "RA12-BS",
      description: `A very long description ${"that goes on ".repeat(20)}`,
      quantity: 1,
      discount: null,
      currency: 1,
      ...amountsOf(1, { listPrice: 89900, lineTotal: 89900 }),
    };
    const facts: QuotePdfFacts = {
      quoteNumber: "QUO-77",
      quotedOn: "Nov 17, 2026",
      validThrough: "Dec 17, 2026",
      validity: "This quote is valid through Dec 17, 2026.",
      contactName: null,
      specialist: { name: null, phone: null, phoneExtension: null },
      shippingAddress: null,
      billingAddress: null,
      currency: 1,
      lineItems: Array.from({ length: 80 }, () => item),
      subtotal: 80 * 89900,
      tax: 0,
      shipping: 0,
      grandTotal: 80 * 89900,
      generatedAt: new Date("2026-11-22T12:00:00Z"),
    };
    const bytes = await quotePdf(facts);
    const lines = pdfText(bytes).split("\n");
    // WinAnsi's ellipsis is byte 0x85: each description ends in it, cut within its column.
    const cut = lines.filter((l) => l.startsWith("A very long description") && l.endsWith("\x85"));
    expect(cut).toHaveLength(80);
    expect(cut[0]!.length).toBeLessThan(60);
    expect(bytes.toString("latin1").match(/\/Type \/Page\b/g)!.length).toBeGreaterThan(1);
    expect(lines).toContain("$71,920.00");
  });
});
