import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../server/core/crypto.ts";
import { TOTAL_TOO_LARGE } from "../../server/data/opsQuotes.ts";
import { createOpsToken, revokeOpsToken } from "../../server/data/opsTokens.ts";
import { opsTokens, quotes, subscriptions } from "../../server/db/schema/index.ts";
import { demoToken } from "../../server/seed/demo.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import { rowsOf } from "./ownership.ts";

const ORIGIN = "http://localhost";
const OPS = "/api/v1/ops";
const orderRef = (id: number) => `ORD-${id}-${demoToken(`order-${id}`)}`;
let keys = 0;
const newKey = () => `test-key-${++keys}-${Date.now()}`;

describe("the back-office operations API", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const token = async (name = "erp") => (await createOpsToken(db(), name, TEST_NOW)).token;

  /** An ops call: bearer token, idempotency key and JSON body. */
  const call = async (
    path: string,
    body: unknown,
    opts: { token?: string | null; key?: string | null; method?: string } = {},
  ) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.token) headers["authorization"] = `Bearer ${opts.token}`;
    if (opts.key !== null) headers["idempotency-key"] = opts.key ?? newKey();
    const res = await ctx.app.request(`${ORIGIN}${path}`, {
      method: opts.method ?? "POST",
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const acmeId = async () =>
    (await db().select().from(subscriptions).where(eq(subscriptions.name, "Acme Labs")))[0]!.id;
  const quoteInput = async (id = 7001) => ({
    id,
    subscriptionId: await acmeId(),
    productFamily: "Environmental Monitoring",
    contactName: "Dana Whitfield",
    expiresAt: Math.floor(TEST_NOW.getTime() / 1000) + 30 * 86_400,
    shippingAddress: { line1: "1 Lab Way", city: "Boston", state: "MA", zipCode: "02110", countryId: 1 },
    productSpecialist: { name: "Sam Seller", phone: "555-0100", phoneExtension: "12" },
    shippingCost: 1500,
    tax: 800,
    lineItems: [
      {
        productNumber: "RA-100",
        description: "Room Alert 100",
        quantity: 2,
        listPrice: 10_000,
        discount: "10%",
      },
      { productNumber: "TS-1", description: "Temperature sensor", quantity: 1, listPrice: 2_500 },
    ],
  });
  const publicOrder = async (id: number) => {
    const res = await ctx.app.request(`${ORIGIN}/api/v1/orders/public/${orderRef(id)}`);
    return (await res.json()).data.orderDetails;
  };

  describe("tokens", () => {
    it("makes tokens of at least 128 bits with the ops_ prefix and keeps only their SHA-256", async () => {
      const { id, token: text } = await createOpsToken(db(), "erp", TEST_NOW);
      expect(text).toMatch(/^ops_[A-Za-z0-9_-]{43,}$/);
      const [row] = await db().select().from(opsTokens).where(eq(opsTokens.id, id));
      expect(row!.tokenHash).toBe(sha256(text));
      expect(JSON.stringify(row)).not.toContain(text.slice(4));
    });

    it("refuses a missing, unknown or revoked token with 401 and says why", async () => {
      const body = await quoteInput();
      const missing = await call(`${OPS}/quotes`, body);
      expect(missing.status).toBe(401);
      expect(missing.body.data[0].message).toMatch(/needs an operations token/);
      const unknown = await call(`${OPS}/quotes`, body, { token: "ops_not-a-real-token" });
      expect(unknown).toMatchObject({
        status: 401,
        body: { data: [{ message: "The operations token is unknown or revoked." }] },
      });
      const { id, token: text } = await createOpsToken(db(), "old", TEST_NOW);
      expect(await revokeOpsToken(db(), id, TEST_NOW)).toBe(true);
      expect((await call(`${OPS}/quotes`, body, { token: text })).status).toBe(401);
      expect((await db().select().from(quotes).where(eq(quotes.id, 7001))).length).toBe(0);
    });

    it("opens no ops route with a signed-in administrator's session cookie", async () => {
      const admin = browser(ctx.app, ORIGIN);
      await signIn(admin, "admin@example.com");
      const writes: [string, string, unknown][] = [
        ["POST", `${OPS}/quotes`, await quoteInput()],
        ["PATCH", `${OPS}/quotes/1001`, { contactName: "X" }],
        ["POST", `${OPS}/quotes/1001/close`, undefined],
        [
          "POST",
          `${OPS}/orders/5001/shipments`,
          { carrier: "UPS", shipMethod: "Ground", trackingNumbers: ["1Z999"] },
        ],
        ["POST", `${OPS}/orders/5001/payments`, { kind: "payment", amount: 100, method: "Check" }],
      ];
      for (const [method, path, body] of writes) {
        const res = await admin.json(path, body ?? {}, method);
        expect(res.status, `${method} ${path}`).toBe(401);
      }
      expect((await publicOrder(5001)).payments).toEqual([]);
    });

    it("opens no customer route with an ops token", async () => {
      const bearer = { authorization: `Bearer ${await token()}` };
      for (const path of [
        "/api/v1/session",
        "/api/v1/orders",
        "/api/v1/quotes",
        "/api/v1/orders/5001",
        "/api/v1/devices",
      ]) {
        const res = await ctx.app.request(`${ORIGIN}${path}`, { headers: bearer });
        expect(res.status, path).toBe(401);
      }
      const pay = await ctx.app.request(`${ORIGIN}/api/v1/session/settings`, {
        method: "PATCH",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ timezone: "UTC" }),
      });
      expect(pay.status).toBe(401);
    });
  });

  describe("quotes", () => {
    it("refuses a quote whose total one payment cannot carry, created or changed, and keeps the quote as it was (issue 32)", async () => {
      const t = await token();
      // Each line fits one payment (9,999 × 1,000,000,000.00); two of them do not.
      const line = { productNumber: "BIG", description: "Big", quantity: 9_999, listPrice: 100_000_000_000 };
      const huge = { ...(await quoteInput()), lineItems: [line, line] };
      const refused = await call(`${OPS}/quotes`, huge, { token: t });
      expect(refused).toEqual({
        status: 400,
        body: { success: false, data: [{ field: null, message: TOTAL_TOO_LARGE }] },
      });
      expect(await db().select().from(quotes).where(eq(quotes.id, 7001))).toEqual([]);
      // One line past it is refused beside the line, before any sum could round.
      const lineRefused = await call(
        `${OPS}/quotes`,
        { ...huge, lineItems: [{ ...line, quantity: 100_000 }] },
        { token: t },
      );
      expect(lineRefused).toEqual({
        status: 400,
        body: {
          success: false,
          data: [
            {
              field: "lineItems.0.quantity",
              message: "A line's quantity times its price is larger than one payment can carry.",
            },
          ],
        },
      });
      expect((await call(`${OPS}/quotes`, await quoteInput(), { token: t })).status).toBe(200);
      const before = (await call(`${OPS}/quotes/7001`, {}, { token: t, method: "PATCH" })).body.data;
      const change = await call(
        `${OPS}/quotes/7001`,
        { lineItems: [line, line] },
        { token: t, method: "PATCH" },
      );
      expect(change.status).toBe(400);
      const after = (await call(`${OPS}/quotes/7001`, {}, { token: t, method: "PATCH" })).body.data;
      expect(after).toEqual(before);
      // The largest payable total still goes through: 9,999,999,999,999.99.
      const edge = { productNumber: "EDGE", description: "Edge", quantity: 9999, listPrice: 100_000_000_000 };
      const rest = { productNumber: "REST", description: "Rest", quantity: 1, listPrice: 99_999_999_999 };
      const ok = await call(
        `${OPS}/quotes/7001`,
        { lineItems: [edge, rest], tax: 0, shippingCost: 0 },
        { token: t, method: "PATCH" },
      );
      expect(ok).toMatchObject({ status: 200, body: { data: { grandTotal: 999_999_999_999_999 } } });
    });

    it("creates a quote that its public page shows with items, totals and specialist", async () => {
      const res = await call(`${OPS}/quotes`, await quoteInput(), { token: await token() });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: 7001,
        quoteNumber: "QUO-7001",
        status: "Open",
        subtotal: 20_500,
        grandTotal: 22_800,
        lineItemCount: 2,
      });
      // The back office's write is in the customer's audit trail, by the token's name.
      const [row] = await rowsOf<{
        action: string;
        actor_kind: string;
        actor_label: string;
        entity_id: string;
      }>(
        db(),
        sql`select action, actor_kind, actor_label, entity_id from audit_log where subscription_id = ${await acmeId()} order by id desc limit 1`,
      );
      expect(row).toEqual({
        action: "ops.quote.create",
        actor_kind: "ops",
        actor_label: "erp",
        entity_id: "quote:7001",
      });
      const page = await ctx.app.request(`${ORIGIN}/api/v1/quotes/public/${res.body.data.publicToken}`);
      const quote = (await page.json()).data.quoteDetails;
      expect(quote.productSpecialist).toEqual({
        name: "Sam Seller",
        phone: "555-0100",
        phoneExtension: "12",
      });
      expect(quote.quoteLineItemList.map((i: { lineTotalCents: number }) => i.lineTotalCents)).toEqual([
        18_000, 2_500,
      ]);
      expect(quote.grandTotalCents).toBe(22_800);
      expect(quote.shippingAddress).toMatchObject({ city: "Boston", country: { id: 1 } });
    });

    it("answers the first answer again for the same key and body, once even in parallel", async () => {
      const t = await token();
      const body = await quoteInput();
      const key = newKey();
      const answers = await Promise.all([1, 2, 3].map(() => call(`${OPS}/quotes`, body, { token: t, key })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.data.publicToken)).size).toBe(1);
      const again = await call(`${OPS}/quotes`, body, { token: t, key });
      expect(again.body.data).toEqual(answers[0]!.body.data);
      expect((await db().select().from(quotes).where(eq(quotes.id, 7001))).length).toBe(1);
    });

    it("refuses the same key with a different body with 409", async () => {
      const t = await token();
      const key = newKey();
      expect((await call(`${OPS}/quotes`, await quoteInput(7001), { token: t, key })).status).toBe(200);
      const other = await call(`${OPS}/quotes`, await quoteInput(7002), { token: t, key });
      expect(other.status).toBe(409);
      expect(other.body.data[0].message).toMatch(/already used for a different request/);
      expect((await db().select().from(quotes).where(eq(quotes.id, 7002))).length).toBe(0);
    });

    it("lets a key whose write failed be sent again", async () => {
      const t = await token();
      const key = newKey();
      const bad = { ...(await quoteInput()), subscriptionId: 999_999 };
      expect((await call(`${OPS}/quotes`, bad, { token: t, key })).status).toBe(400);
      expect((await call(`${OPS}/quotes`, await quoteInput(), { token: t, key })).status).toBe(200);
    });

    it("answers bad input with 400 and field messages, never 500", async () => {
      const t = await token();
      const good = await quoteInput();
      const cases: [unknown, string][] = [
        [{ ...good, lineItems: [] }, "lineItems"],
        [{ ...good, id: -4 }, "id"],
        [{ ...good, lineItems: [{ ...good.lineItems[0], quantity: 0 }] }, "lineItems.0.quantity"],
        [{ ...good, lineItems: [{ ...good.lineItems[0], discount: "lots" }] }, "lineItems.0.discount"],
        [{ ...good, shippingAddress: { countryId: 424_242 } }, "shippingAddress.countryId"],
        [{ ...good, currency: 3 }, "currency"],
        [{ ...good, tax: 1.5 }, "tax"],
        [{ ...good, contactName: "" }, "contactName"],
      ];
      for (const [body, field] of cases) {
        const res = await call(`${OPS}/quotes`, body, { token: t });
        expect(res.status, field).toBe(400);
        expect(
          res.body.data.map((e: { field: string }) => e.field),
          field,
        ).toContain(field);
      }
      const noKey = await call(`${OPS}/quotes`, good, { token: t, key: null });
      expect(noKey).toMatchObject({ status: 400, body: { data: [{ field: "Idempotency-Key" }] } });
      const taken = await call(`${OPS}/quotes`, { ...good, id: 1001 }, { token: t });
      expect(taken).toMatchObject({ status: 409, body: { data: [{ field: "id" }] } });
    });

    it("updates an open quote, replacing its line items, and answers 404 for an unknown one", async () => {
      const t = await token();
      await call(`${OPS}/quotes`, await quoteInput(), { token: t });
      const lineItems = [
        { productNumber: "RA-3", description: "Room Alert 3", quantity: 4, listPrice: 5_000 },
      ];
      const res = await call(`${OPS}/quotes/7001`, { lineItems, tax: 0 }, { token: t, method: "PATCH" });
      expect(res.body.data).toMatchObject({ subtotal: 20_000, grandTotal: 21_500, lineItemCount: 1 });
      expect((await call(`${OPS}/quotes/424242`, { tax: 0 }, { token: t, method: "PATCH" })).status).toBe(
        404,
      );
      expect((await call(`${OPS}/quotes/abc`, { tax: 0 }, { token: t, method: "PATCH" })).status).toBe(400);
    });

    it("closes a quote: its page shows Closed and it no longer changes", async () => {
      const t = await token();
      const created = await call(`${OPS}/quotes`, await quoteInput(), { token: t });
      const closed = await call(`${OPS}/quotes/7001/close`, undefined, { token: t });
      expect(closed.body.data.status).toBe("Closed");
      const page = await ctx.app.request(`${ORIGIN}/api/v1/quotes/public/${created.body.data.publicToken}`);
      expect((await page.json()).data.quoteDetails).toMatchObject({
        status: "Closed",
        isOpen: false,
        payable: false,
      });
      const edit = await call(`${OPS}/quotes/7001`, { tax: 0 }, { token: t, method: "PATCH" });
      expect(edit).toMatchObject({
        status: 409,
        body: { data: [{ message: "The quote is closed; it cannot change." }] },
      });
      expect((await call(`${OPS}/quotes/424242/close`, undefined, { token: t })).status).toBe(404);
    });
  });

  describe("orders", () => {
    const ship = { carrier: "UPS", shipMethod: "Ground", trackingNumbers: ["1ZOPS0001", "1ZOPS0002"] };
    const tracking = async (n: string) => {
      const res = await ctx.app.request(`${ORIGIN}/shipments/tracking-details/${n}`);
      return (await res.json()).data.trackingDetails;
    };

    it("marks an order shipped with one shipment per tracking number, shown on its public page", async () => {
      const t = await token();
      const res = await call(`${OPS}/orders/5001/shipments`, ship, { token: t });
      expect(res.body.data).toMatchObject({ orderId: 5001, shippingStatus: "Shipped" });
      const order = await publicOrder(5001);
      expect(order).toMatchObject({
        shippingStatus: "Shipped",
        statusType: "shipped",
        shipCarrier: "UPS",
        shipMethod: "Ground",
      });
      expect(order.trackingNumbers).toEqual(ship.trackingNumbers);
      expect(order.shippingTimestamp).toBe(Math.floor(TEST_NOW.getTime() / 1000));
      const list = await ctx.app.request(`${ORIGIN}/api/v1/shipments/shipment-list/${orderRef(5001)}`);
      const [first] = (await list.json()).data.shipmentList;
      expect(first.shipmentItems.reduce((n: number, i: { quantity: number }) => n + i.quantity, 0)).toBe(
        order.numItems,
      );
    });

    it("refuses a tracking number already used, unknown items and unknown orders", async () => {
      const t = await token();
      await call(`${OPS}/orders/5001/shipments`, ship, { token: t });
      const again = await call(
        `${OPS}/orders/5007/shipments`,
        { ...ship, trackingNumbers: ["1ZOPS0002"] },
        { token: t },
      );
      expect(again).toMatchObject({ status: 409, body: { data: [{ field: "trackingNumbers" }] } });
      const items = [{ productNumber: "NOPE", quantity: 1 }];
      const wrong = await call(
        `${OPS}/orders/5007/shipments`,
        { ...ship, trackingNumbers: ["1ZOPS0003"], items },
        { token: t },
      );
      expect(wrong).toMatchObject({ status: 400, body: { data: [{ field: "items.0.productNumber" }] } });
      const twice = await call(
        `${OPS}/orders/5007/shipments`,
        { ...ship, trackingNumbers: ["1ZOPS0004", "1ZOPS0004"] },
        { token: t },
      );
      expect(twice.status).toBe(400);
      expect((await call(`${OPS}/orders/424242/shipments`, ship, { token: t })).status).toBe(404);
      expect((await call(`${OPS}/orders/5005/shipments`, ship, { token: t })).status).toBe(409);
      const badNumber = await call(
        `${OPS}/orders/5007/shipments`,
        { ...ship, trackingNumbers: ["<script>"] },
        { token: t },
      );
      expect(badNumber).toMatchObject({ status: 400, body: { data: [{ field: "trackingNumbers.0" }] } });
    });

    it("adds carrier activity the tracking modal shows, and a delivery marks the order delivered", async () => {
      const t = await token();
      await call(`${OPS}/orders/5001/shipments`, { ...ship, trackingNumbers: ["1ZOPS0001"] }, { token: t });
      const at = Math.floor(TEST_NOW.getTime() / 1000);
      const scan = {
        occurredAt: at + 3600,
        locationDescription: "Memphis, TN",
        description: "Departed facility",
      };
      expect((await call(`${OPS}/tracking/1ZOPS0001/activity`, scan, { token: t })).status).toBe(200);
      expect((await tracking("1ZOPS0001")).activity[0]).toMatchObject({
        description: "Departed facility",
        locationDescription: "Memphis, TN",
      });
      const done = {
        occurredAt: at + 7200,
        description: "Delivered",
        signedForByName: "DANA",
        delivered: true,
      };
      const res = await call(`${OPS}/tracking/1ZOPS0001/activity`, done, { token: t });
      expect(res.body.data).toMatchObject({ isDelivered: true, shippingStatus: "Delivered" });
      expect(await publicOrder(5001)).toMatchObject({ statusType: "delivered", shippingStatus: "Delivered" });
      expect((await call(`${OPS}/tracking/NOSUCH123/activity`, scan, { token: t })).status).toBe(404);
      expect(
        (await call(`${OPS}/tracking/1ZOPS0001/activity`, { ...scan, occurredAt: "soon" }, { token: t }))
          .status,
      ).toBe(400);
    });

    it("records an offline payment and a refund, and the public order's balance follows", async () => {
      const t = await token();
      const before = await publicOrder(5001);
      const due = before.paymentBalanceDueCents as number;
      expect(due).toBeGreaterThan(100);
      const part = await call(
        `${OPS}/orders/5001/payments`,
        { kind: "payment", amount: 100, method: "Check", reference: "CHK-42" },
        { token: t },
      );
      expect(part.body.data).toMatchObject({ paid: 100, balanceDue: due - 100 });
      let order = await publicOrder(5001);
      expect(order).toMatchObject({
        paidCents: 100,
        paymentBalanceDueCents: due - 100,
        paymentStatus: "Open",
      });
      expect(order.payments.at(-1)).toMatchObject({ amountCents: 100, method: "Check", cardLast4: null });
      const over = await call(
        `${OPS}/orders/5001/payments`,
        { kind: "payment", amount: due, method: "Wire" },
        { token: t },
      );
      expect(over).toMatchObject({ status: 400, body: { data: [{ field: "amount" }] } });
      const rest = await call(
        `${OPS}/orders/5001/payments`,
        { kind: "payment", amount: due - 100, method: "Wire" },
        { token: t },
      );
      expect(rest.body.data).toMatchObject({ paymentStatus: "Paid", balanceDue: 0 });
      expect(await publicOrder(5001)).toMatchObject({ billingStatus: "Paid", payable: false });
      const refund = await call(
        `${OPS}/orders/5001/payments`,
        { kind: "refund", amount: due, method: "Wire" },
        { token: t },
      );
      expect(refund.body.data).toMatchObject({ paymentStatus: "Refunded", paid: 0 });
      order = await publicOrder(5001);
      expect(order).toMatchObject({ billingStatus: "Refunded", paidCents: 0 });
    });

    it("charges a payment once for one key, even sent in parallel, and refuses unknown orders and bad amounts", async () => {
      const t = await token();
      const key = newKey();
      const body = { kind: "payment", amount: 250, method: "ACH" };
      const answers = await Promise.all(
        [1, 2, 3].map(() => call(`${OPS}/orders/5001/payments`, body, { token: t, key })),
      );
      expect(new Set(answers.map((a) => a.body.data.paymentId)).size).toBe(1);
      expect((await publicOrder(5001)).paidCents).toBe(250);
      expect((await call(`${OPS}/orders/424242/payments`, body, { token: t })).status).toBe(404);
      for (const amount of [0, -5, 1.5, "10"])
        expect(
          (await call(`${OPS}/orders/5001/payments`, { ...body, amount }, { token: t })).status,
          String(amount),
        ).toBe(400);
      expect(
        (await call(`${OPS}/orders/5001/payments`, { ...body, kind: "gift" }, { token: t })).status,
      ).toBe(400);
    });
  });
});
