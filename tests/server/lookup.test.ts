import { describe, expect, it } from "vitest";
import { DEMO } from "../../server/seed/demo.ts";
import { lookupPath } from "../../src/domain/lookup.ts";
import { useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = { success: false, data: [{ field: null, message: "Record not found." }] };
const ORDER_REF = `ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;

/** A caller at its own address (the lookup is rate limited per client address). */
const peer = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv4" } },
});

describe("the quote and order lookup", () => {
  const ctx = useTestApp({ seeded: true });
  const request = async (path: string, address: string) =>
    ctx.app.request(`${ORIGIN}${path}`, { headers: { origin: ORIGIN } }, peer(address));
  const search = (fields: Record<string, string>, address = "10.0.0.1") =>
    request(`/api/v1/orders-and-quotes/public/search?${new URLSearchParams(fields)}`, address);
  const found = async (id: string, contact: string) => {
    const res = await search({ id, contact });
    expect([id, contact, res.status]).toEqual([id, contact, 200]);
    return (await res.json()).data.resourceUri as string;
  };

  it("finds an order: its identifier contains 'ord' and opens the public order", async () => {
    const uri = await found("ORD-5003", "Dana Whitfield");
    expect(uri).toBe(ORDER_REF);
    expect(lookupPath(uri)).toBe(`/p/order/${encodeURIComponent(ORDER_REF)}`);
    expect((await request(`/api/v1/orders/public/${uri}`, "10.0.0.9")).status).toBe(200);
  });

  it("finds a quote: its identifier is the token, never contains 'ord', and opens the full quote", async () => {
    const uri = await found("QUO-1001", "Dana Whitfield");
    expect(uri).toBe(DEMO.openQuoteToken);
    expect(uri).not.toMatch(/ord/i);
    expect(lookupPath(uri)).toBe(`/p/quote/${DEMO.openQuoteToken}`);
    const res = await request(`/api/v1/quotes/public/${uri}`, "10.0.0.9");
    expect((await res.json()).data.quoteDetails.quoteLineItemList).not.toBeNull();
  });

  it("reads the number in any case with spaces around, and the name ignoring case and extra spaces", async () => {
    expect(await found("  ord-5003 ", "  dana   WHITFIELD ")).toBe(ORDER_REF);
    expect(await found("Quo-1005", "nora\tnorthwind")).toBe(await found("QUO-1005", "Nora Northwind"));
  });

  it("answers every miss with the same 'Record not found.'", async () => {
    const misses = [
      { id: "ORD-5003", contact: "Dana Whitfeld" },
      { id: "ORD-5003", contact: "Nora Northwind" },
      { id: "ORD-99999", contact: "Dana Whitfield" },
      { id: "QUO-99999", contact: "Dana Whitfield" },
      { id: "QUO-5003", contact: "Dana Whitfield" },
      { id: "5003", contact: "Dana Whitfield" },
      { id: "ORD-abc", contact: "Dana Whitfield" },
      { id: "ORD-99999999999", contact: "Dana Whitfield" },
      { id: "ORD-2147483648", contact: "Dana Whitfield" },
      { id: ORDER_REF, contact: "Dana Whitfield" },
      { id: "ORD-5003", contact: "" },
      { id: "", contact: "Dana Whitfield" },
      { id: "ORD-5003", contact: "   " },
    ];
    for (const [i, fields] of misses.entries()) {
      // A new client each time: this test is about the answer, not the limit.
      const res = await search(fields, `10.0.1.${i}`);
      expect([fields, res.status]).toEqual([fields, 404]);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
    const empty = await request("/api/v1/orders-and-quotes/public/search", "10.0.2.1");
    expect(await empty.json()).toEqual(NOT_FOUND);
  });

  it("refuses an overlong number or name with a 400 beside the field", async () => {
    const long = await search({ id: "ORD-".padEnd(101, "1"), contact: "Dana Whitfield" });
    expect((await long.json()).data).toEqual([{ field: "id", message: "The number is too long." }]);
    const name = await search({ id: "ORD-5003", contact: "D".repeat(201) });
    expect((await name.json()).data).toEqual([{ field: "contact", message: "The name is too long." }]);
  });

  it("allows 10 misses per client in 15 minutes, parallel requests included, then answers 429", async () => {
    const miss = (i: number) => search({ id: `ORD-${6000 + i}`, contact: "Dana Whitfield" });
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => miss(i).then((r) => r.status)));
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const refused = await search({ id: "ORD-5003", contact: "Dana Whitfield" });
    expect(refused.status).toBe(429);
    expect((await refused.json()).data).toEqual([
      { field: null, message: "Too many attempts. Try again in 15 minutes." },
    ]);
    expect((await search({ id: "ORD-5003", contact: "Dana Whitfield" }, "10.0.0.2")).status).toBe(200);
  });

  it("does not count a lookup that finds its record", async () => {
    for (let i = 0; i < 12; i++) await found("ORD-5003", "Dana Whitfield");
    expect((await search({ id: "ORD-5003", contact: "x" })).status).toBe(404);
  });
});
