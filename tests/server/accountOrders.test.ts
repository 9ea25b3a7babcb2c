import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { demoToken } from "../../server/seed/demo.ts";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
/** Seeded orders 5001-5011 and quotes 1001-1004 are Acme's; order 5012 and quote 1005 Northwind's. */
const ACME_ORDERS = Array.from({ length: 11 }, (_, i) => `ORD-${5001 + i}`);

describe("the signed-in order and quote lists", () => {
  const ctx = useTestApp({ seeded: true });
  const as = async (email: string) => {
    const b = browser(ctx.app, ORIGIN);
    await signIn(b, email);
    return b;
  };
  const data = async (res: Response) => {
    expect(res.status).toBe(200);
    return (await res.json()).data;
  };

  it("lists only the active subscription's orders, newest first, with totals and statuses", async () => {
    const { orderList, limit, truncated } = await data(
      await (await as("admin@example.com")).get("/api/v1/orders"),
    );
    expect(orderList.map((o: { orderNumber: string }) => o.orderNumber)).toEqual(ACME_ORDERS);
    expect(limit).toBe(500);
    expect(truncated).toBe(false);
    const times = orderList.map((o: { createdAt: number }) => o.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const partPaid = orderList.find((o: { id: number }) => o.id === 5003);
    expect(partPaid).toMatchObject({
      shippingProgress: "partial",
      billingStatus: "Open",
      poNumber: "PO-88177",
    });
    expect(partPaid.paymentBalanceDueCents).toBeGreaterThan(0);
    expect(partPaid.paymentBalanceDueCents).toBeLessThan(partPaid.grandTotalCents);
    expect(partPaid.paymentBalanceDue).toBe(partPaid.paymentBalanceDueCents / 100);
  });

  it("lists the other subscription's orders to its own owner only", async () => {
    const { orderList } = await data(await (await as("owner@northwind.example.com")).get("/api/v1/orders"));
    expect(orderList.map((o: { id: number }) => o.id)).toEqual([5012]);
  });

  it("lists only the active subscription's quotes, newest first", async () => {
    const { quoteList } = await data(await (await as("admin@example.com")).get("/api/v1/quotes"));
    const numbers = quoteList.map((q: { quoteNumber: string }) => q.quoteNumber);
    expect(numbers.sort()).toEqual(["QUO-1001", "QUO-1002", "QUO-1003", "QUO-1004"]);
    const times = quoteList.map((q: { createdAt: number }) => q.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(quoteList.find((q: { id: number }) => q.id === 1002)).toMatchObject({
      status: "Closed",
      isOpen: false,
    });
  });

  it("shows Viewer, Provisioner and Billing the lists and details (every role may see orders)", async () => {
    for (const role of ["viewer", "provisioner", "billing", "manager"]) {
      const b = await as(`${role}@example.com`);
      expect((await data(await b.get("/api/v1/orders"))).orderList).toHaveLength(11);
      expect((await data(await b.get("/api/v1/quotes"))).quoteList).toHaveLength(4);
      expect((await data(await b.get("/api/v1/orders/5003"))).orderDetails.orderNumber).toBe("ORD-5003");
      expect((await data(await b.get("/api/v1/quotes/1001"))).quoteDetails.quoteNumber).toBe("QUO-1001");
    }
  });

  it("answers 401 without a session", async () => {
    const b = browser(ctx.app, ORIGIN);
    for (const path of ["/api/v1/orders", "/api/v1/quotes", "/api/v1/orders/5003", "/api/v1/quotes/1001"])
      expect((await b.get(path)).status).toBe(401);
  });
});

describe("a signed-in order or quote", () => {
  const ctx = useTestApp({ seeded: true });
  const admin = async () => {
    const b = browser(ctx.app, ORIGIN);
    await signIn(b, "admin@example.com");
    return b;
  };

  it("shows the order with its shipping progress, unshipped items and payments", async () => {
    const res = await (await admin()).get("/api/v1/orders/5003");
    expect(res.status).toBe(200);
    const { orderDetails } = (await res.json()).data;
    expect(orderDetails).toMatchObject({
      orderNumber: "ORD-5003",
      shippingProgress: "partial",
      poNumber: "PO-88177",
      billingStatus: "Open",
      memberPath: null,
    });
    expect(orderDetails.unshippedItems).toBeGreaterThan(0);
    expect(orderDetails.payments.length).toBeGreaterThan(0);
    expect(orderDetails.shippingAddress).not.toBeNull();
  });

  it("gives the order's public link to those who may share it, and to no one else", async () => {
    const adminOrder = (await (await (await admin()).get("/api/v1/orders/5003")).json()).data.orderDetails;
    expect(adminOrder.publicPath).toBe(`/p/order/ORD-5003-${demoToken("order-5003")}`);
    const viewer = browser(ctx.app, ORIGIN);
    await signIn(viewer, "viewer@example.com");
    const viewerOrder = (await (await viewer.get("/api/v1/orders/5003")).json()).data.orderDetails;
    expect(viewerOrder.publicPath).toBeNull();
  });

  it("gives each order its own progress: received, shipped, delivered, cancelled, hold, completed", async () => {
    const b = await admin();
    const progress = async (id: number) =>
      (await (await b.get(`/api/v1/orders/${id}`)).json()).data.orderDetails.shippingProgress;
    expect(await progress(5001)).toBe("received");
    expect(await progress(5002)).toBe("shipped");
    expect(await progress(5004)).toBe("delivered");
    expect(await progress(5005)).toBe("cancelled");
    expect(await progress(5006)).toBe("hold");
    expect(await progress(5009)).toBe("completed");
  });

  it("lists an order's shipments for a member", async () => {
    const res = await (await admin()).get("/api/v1/shipments/shipment-list/order/5003");
    expect(res.status).toBe(200);
    const { shipmentList } = (await res.json()).data;
    expect(shipmentList).toHaveLength(2);
    expect(shipmentList[0].trackingNumber).toEqual(expect.any(String));
  });

  it("keeps the public shipment list working by its token reference", async () => {
    const res = await browser(ctx.app, ORIGIN).get(
      `/api/v1/shipments/shipment-list/ORD-5003-${demoToken("order-5003")}`,
    );
    expect(res.status).toBe(200);
  });

  it("shows the full quote without its guest token", async () => {
    const res = await (await admin()).get("/api/v1/quotes/1001");
    expect(res.status).toBe(200);
    const { quoteDetails } = (await res.json()).data;
    expect(quoteDetails).toMatchObject({ quoteNumber: "QUO-1001", guestToken: null, memberPath: null });
    expect(quoteDetails.quoteLineItemList.length).toBeGreaterThan(0);
    expect(quoteDetails.productSpecialist.name).toEqual(expect.any(String));
  });

  it("says an order has nothing to ship when its quote had nothing to ship", async () => {
    const b = await admin();
    const needs = async (id: number) =>
      (await (await b.get(`/api/v1/orders/${id}`)).json()).data.orderDetails.needsShipping;
    expect(await needs(5001)).toBe(true);
    // Order 5001 was placed from quote 1002.
    await ctx.database.db.execute(sql`update quotes set needs_shipping = false where id = 1002`);
    expect(await needs(5001)).toBe(false);
  });

  it("names the order a closed quote became, and none for an open one", async () => {
    const b = await admin();
    const orderOf = async (id: number) =>
      (await (await b.get(`/api/v1/quotes/${id}`)).json()).data.quoteDetails.orderId;
    expect(await orderOf(1002)).toBe(5001);
    expect(await orderOf(1001)).toBeNull();
  });

  it("gives a member each payment's receipt as a PDF, and no receipt of another order or subscription", async () => {
    const b = await admin();
    const { orderDetails } = (await (await b.get("/api/v1/orders/5003")).json()).data;
    const paymentId = orderDetails.payments[0].id;
    const res = await b.get(`/api/v1/orders/5003/receipt/${paymentId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="receipt-ORD-5003-${paymentId}.pdf"`,
    );
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // The payment belongs to 5003: named under another order, or with none, it is not there.
    for (const path of [
      `/api/v1/orders/5001/receipt/${paymentId}`,
      `/api/v1/orders/5012/receipt/${paymentId}`,
      "/api/v1/orders/5003/receipt/99999999",
    ]) {
      const other = await b.get(path);
      expect([path, other.status]).toEqual([path, 404]);
      expect(await other.json()).toEqual(NOT_FOUND);
    }
    expect((await browser(ctx.app, ORIGIN).get(`/api/v1/orders/5003/receipt/${paymentId}`)).status).toBe(401);
  });

  it("answers another subscription's order, shipments and quote exactly like missing ones", async () => {
    const b = await admin();
    for (const [foreign, missing] of [
      ["/api/v1/orders/5012", "/api/v1/orders/99999"],
      ["/api/v1/shipments/shipment-list/order/5012", "/api/v1/shipments/shipment-list/order/99999"],
      ["/api/v1/quotes/1005", "/api/v1/quotes/99999"],
    ] as const) {
      const [theirs, none] = await Promise.all([b.get(foreign), b.get(missing)]);
      expect(theirs.status).toBe(404);
      expect(none.status).toBe(404);
      expect(await theirs.json()).toEqual(NOT_FOUND);
      expect(await none.json()).toEqual(NOT_FOUND);
    }
  });

  it("refuses malformed ids with a clear 400, never a 500", async () => {
    const b = await admin();
    for (const id of ["abc", "0", "-1", "1e3", "2147483648", "ORD-5003", "QUO-1001", "5003.5"]) {
      for (const path of [
        `/api/v1/orders/${id}`,
        `/api/v1/quotes/${id}`,
        `/api/v1/shipments/shipment-list/order/${id}`,
      ]) {
        const res = await b.get(path);
        expect(res.status, path).toBe(400);
        expect((await res.json()).data[0].message).toBe("Must be a whole number from 1 to 2147483647.");
      }
    }
  });
});
