import { describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import { demoToken } from "../../server/seed/demo.ts";
import type { Carriers } from "../../server/services/carriers.ts";
import { DUE_AFTER_SECONDS } from "../../src/domain/order.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const ref = (id: number) => `ORD-${id}-${demoToken(`order-${id}`)}`;
const orderPath = (r: string) => `/api/v1/orders/public/${r}`;
const shipmentsPath = (r: string) => `/api/v1/shipments/shipment-list/${r}`;

/** Malformed, unknown and wrong references: each must answer the very same 404. */
const MISSES = [
  `ORD-5003-${demoToken("order-5004")}`,
  `ORD-99999-${demoToken("order-5003")}`,
  `ORD-5012-${demoToken("order-5003")}`,
  "ORD-5003",
  "ORD-abc",
  "5003",
  `99999999999-${demoToken("order-5003")}`,
  `2147483648-${demoToken("order-5003")}`,
  `0-${demoToken("order-5003")}`,
  `ORD-5003-${"x".repeat(5000)}`,
  "x".repeat(3000),
  encodeURIComponent("ORD-5003-a b"),
  "..",
];

describe("the public order", () => {
  const ctx = useTestApp({ seeded: true });
  const get = (path: string, b = browser(ctx.app, ORIGIN)) => b.get(path);
  const details = async (r: string, b?: ReturnType<typeof browser>) => {
    const res = await get(orderPath(r), b);
    expect(res.status).toBe(200);
    return (await res.json()).data.orderDetails;
  };

  it("answers ORD-{id}-{validationId} and {id}-{validationId} with the whole order", async () => {
    const order = await details(ref(5003));
    expect(await details(ref(5003).slice(4))).toEqual(order);
    expect(order).toMatchObject({
      id: 5003,
      orderNumber: "ORD-5003",
      statusType: "partial",
      paymentStatus: "Part Paid",
      billingStatus: "Open",
      needsPayment: true,
      payable: true,
      numItems: 7,
      poNumber: "PO-88177",
      shipMethod: "Ground",
      memberPath: null,
    });
    expect(order.grandTotalCents).toBe(order.subtotalCents + order.taxCents + order.shippingAmountCents);
    expect(order.paymentBalanceDueCents).toBe(order.grandTotalCents - order.paidCents);
    expect(order.grandTotal).toBe(order.grandTotalCents / 100);
    expect(order.dueDate).toBe(order.shippingTimestamp + DUE_AFTER_SECONDS);
    expect(order.trackingNumbers).toHaveLength(2);
    expect(order.shippingAddress.line1).toBe("100 Research Park Dr");
    expect(order.payments).toEqual([expect.objectContaining({ cardBrand: "Visa", cardLast4: "4242" })]);
  });

  it("derives each seeded order's statusType, billing status and payable from src/domain", async () => {
    const expected = [
      [5001, "received", "Open", true],
      [5002, "shipped", "Open", true],
      [5004, "delivered", "Paid", false],
      [5005, "cancelled", "Cancelled", false],
      [5006, "hold", "Open", false],
      [5008, "delivered", "Refunded", false],
      [5009, "received", "Closed", false],
      [5010, "received", "Paid", false],
      [5011, "received", "Open", false],
    ] as const;
    const found = [];
    for (const [id] of expected) {
      const order = await details(ref(id));
      found.push([id, order.statusType, order.billingStatus, order.payable]);
    }
    expect(found).toEqual(expected);
  });

  it("has no due date before the order ships", async () => {
    const order = await details(ref(5001));
    expect([order.shippingTimestamp, order.dueDate, order.trackingNumbers]).toEqual([null, null, []]);
  });

  it("lists the order's life oldest first: quote, order, payment, shipped, carrier scans, delivered", async () => {
    const fromQuote = await details(ref(5001));
    expect(fromQuote.timeline.map((e: { kind: string }) => e.kind)).toEqual(["quote", "order"]);
    expect(fromQuote.timeline[0].text).toBe("Quote QUO-1002 created");
    const delivered = await details(ref(5004));
    const kinds = delivered.timeline.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual([
      "order",
      "payment",
      "shipped",
      "carrier",
      "carrier",
      "carrier",
      "carrier",
      "delivered",
    ]);
    const times = delivered.timeline.map((e: { at: number }) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(delivered.timeline.at(-1).text).toMatch(/^Delivered \(Boston, MA, US\), tracking 1Z/);
  });

  it("takes the timeline's carrier scans from the Carriers service", async () => {
    const carriers: Carriers = {
      tracking: async () => ({
        method: "Ground",
        activity: [
          { at: TEST_NOW, location: "Memphis, TN, US", description: "Sorted", signedForByName: null },
        ],
      }),
    };
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, carriers });
    const order = await details(ref(5002), browser(app, ORIGIN));
    expect(order.timeline.at(-1)).toEqual({
      at: TEST_NOW.getTime() / 1000,
      kind: "carrier",
      text: "Sorted (Memphis, TN, US)",
    });
  });

  it("still shows the order when the carrier fails", async () => {
    const carriers: Carriers = { tracking: () => Promise.reject(new Error("carrier down")) };
    const quiet = vi.spyOn(console, "warn").mockImplementation(() => {});
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, carriers });
    const order = await details(ref(5002), browser(app, ORIGIN)).finally(() => quiet.mockRestore());
    expect(order.timeline.map((e: { kind: string }) => e.kind)).toEqual(["order", "shipped"]);
  });

  it("answers a wrong validation id, an unknown id and a malformed reference with identical 404s", async () => {
    for (const r of MISSES) {
      const res = await get(orderPath(r));
      expect([r.slice(0, 40), res.status]).toEqual([r.slice(0, 40), 404]);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
  });

  it("never answers 5xx to a NUL or an empty reference", async () => {
    for (const r of ["%00", "ORD-5003-%00", ""]) {
      const res = await get(orderPath(r));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("sends a signed-in member of the order's subscription to the signed-in page, and no one else", async () => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    expect((await details(ref(5003), admin)).memberPath).toBe("/s/order/details/5003");
    const other = browser(ctx.app, ORIGIN);
    await signIn(other, "owner@northwind.example.com");
    expect((await details(ref(5003), other)).memberPath).toBeNull();
    // Signed in to another account: the page says whom to ask (issue 32); nobody else is told so.
    expect((await details(ref(5003), other)).signedInElsewhere).toBe(true);
    expect((await details(ref(5012), other)).memberPath).toBe("/s/order/details/5012");
    expect((await details(ref(5012), other)).signedInElsewhere).toBeUndefined();
    expect((await details(ref(5003))).memberPath).toBeNull();
    expect((await details(ref(5003))).signedInElsewhere).toBeUndefined();
  });

  it("reads a stale or forged session cookie as no session, never 401", async () => {
    const b = browser(ctx.app, ORIGIN);
    b.jar.set("portal_sid", "forged");
    expect((await details(ref(5003), b)).memberPath).toBeNull();
  });
});

describe("the public shipment list", () => {
  const ctx = useTestApp({ seeded: true });
  const get = (path: string) => browser(ctx.app, ORIGIN).get(path);

  it("lists the order's shipments with what each carries, where from and where to", async () => {
    const res = await get(shipmentsPath(ref(5003)));
    expect(res.status).toBe(200);
    const list = (await res.json()).data.shipmentList;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      carrier: "UPS",
      shipMethod: "Ground",
      isDelivered: true,
      shipmentItems: [{ productNumber: "RA12-BS", quantity: 1 }],
      address: { city: "Boston", state: "MA", country: "United States" },
      distributionOrigin: { shippingAddress: { city: "Louisville", state: "KY", countryCode: "US" } },
    });
    expect(list[1].isDelivered).toBe(false);
  });

  it("lists none for an order not yet shipped", async () => {
    const res = await get(shipmentsPath(ref(5001).slice(4)));
    expect((await res.json()).data.shipmentList).toEqual([]);
  });

  it("answers a wrong, unknown or malformed reference with identical 404s", async () => {
    for (const r of MISSES) {
      const res = await get(shipmentsPath(r));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
  });
});

describe("the country list", () => {
  const ctx = useTestApp({ seeded: true });

  it("lists the countries by name, leaving out the crmId 0 placeholder", async () => {
    const res = await browser(ctx.app, ORIGIN).get("/order/country-list");
    expect(res.status).toBe(200);
    const list: { name: string; crmId: number }[] = (await res.json()).data.countryList;
    expect(list.length).toBeGreaterThan(5);
    expect(list.filter((c) => c.crmId === 0)).toEqual([]);
    expect(list.map((c) => c.name)).not.toContain("Unassigned");
    expect(list.map((c) => c.name)).toEqual(list.map((c) => c.name).toSorted());
    expect(list).toContainEqual({
      id: 1,
      crmId: 1001,
      code: "US",
      name: "United States",
      abbreviation: "USA",
    });
  });
});
