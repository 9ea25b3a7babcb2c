import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import {
  addresses,
  orderLineItems,
  orders,
  outbox,
  paymentAttempts,
  payments,
  quotes,
  sandboxCharges,
} from "../../server/db/schema/index.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { sandboxChargeStore } from "../../server/data/payments.ts";
import { quoteRecord } from "../../server/data/quotes.ts";
import { AMOUNT_CHANGED, KEY_REUSED, STILL_PROCESSING } from "../../server/flows/paymentFlow.ts";
import { ORDER_NOT_PAYABLE, QUOTE_EXPIRED, QUOTE_ORDERED } from "../../server/flows/paymentPlans.ts";
import { DEMO, demoHexToken, demoToken } from "../../server/seed/demo.ts";
import { createSandboxGateway, type PaymentGateway } from "../../server/services/payments.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { browser } from "./client.ts";
import {
  captureConsole,
  cardCodeIn,
  cardFormFor,
  orderRef,
  payPath,
  quotePath,
  rowsWhere,
} from "./guestPayKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const CARD = "4242424242424242";
/** A code no test data or log line has: any trace of it in a dump or a log is a leak. */
const CVV = "864";
const EMAIL = "guest@example.org";
const PART_PAID = 5003;
const cardForm = cardFormFor(CVV, EMAIL);

const printed = captureConsole();
afterAll(() => {
  const text = printed.join("\n");
  expect(text).not.toMatch(/4242\D?4242\D?4242\D?4242|4000\D?0000\D?0000\D?0\d{3}/);
  expect(text).not.toMatch(cardCodeIn(CVV));
});

describe("guest payments", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const guest = () => browser(ctx.app, ORIGIN);
  const balanceOf = async (id: number) => (await orderRecord(db(), id))!.balanceDue;
  const orderForm = async (id: number, over: Record<string, string> = {}) => {
    const balance = String(await balanceOf(id));
    return cardForm({ balanceDue: balance, paymentAmount: balance, ...over });
  };
  const quoteForm = async (id: number, over: Record<string, string> = {}) =>
    cardForm({ grandTotal: String((await quoteRecord(db(), id))!.grandTotal), ...over });
  const count = async (table: typeof sandboxCharges | typeof payments | typeof orders) =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
    )[0]!.n;

  // Every table, every row, as text: no card number or code anywhere, after every test.
  afterEach(async () => {
    expect(await cardDataIn(db())).toEqual([]);
  });

  it("pays an order's whole balance: the balance becomes 0 and the billing status Paid", async () => {
    const balance = await balanceOf(PART_PAID);
    expect(balance).toBeGreaterThan(0);
    const res = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { data } = await res.json();
    expect(data).toMatchObject({
      amount: balance / 100,
      amountCents: balance,
      amountDisplay: formatMoney(balance, 1),
      cardBrand: "Visa",
      cardLast4: "4242",
      billingStatus: "Paid",
      paymentBalanceDue: 0,
      receiptPath: `/order/public/${orderRef(PART_PAID)}/receipt/${data.paymentId}`,
    });
    const record = (await orderRecord(db(), PART_PAID))!;
    expect(record.balanceDue).toBe(0);
    expect(record.row.paymentStatus).toBe("Paid");
    expect(record.payments.at(-1)).toMatchObject({
      amount: balance,
      method: "Online - CC",
      cardLast4: "4242",
    });
    const page = await guest().get(`/api/v1/orders/public/${orderRef(PART_PAID)}`);
    expect((await page.json()).data.orderDetails).toMatchObject({
      billingStatus: "Paid",
      paymentBalanceDue: 0,
    });
  });

  it("orders a quote: a paid order with the quote's items, the quote Closed, and the order's link", async () => {
    const quote = (await quoteRecord(db(), DEMO.openQuoteId))!;
    const res = await guest().form(quotePath(DEMO.openQuoteToken), await quoteForm(DEMO.openQuoteId));
    expect(res.status).toBe(200);
    const { data } = await res.json();
    const [, id, validationId] = /^\/p\/order\/ORD-(\d+)-([A-Za-z0-9_-]+)$/.exec(data.orderPath)!;
    expect(Number(id)).toBe(data.orderId);
    // 24 base64url characters: 144 random bits.
    expect(validationId!.length * 6).toBeGreaterThanOrEqual(128);
    const order = (await orderRecord(db(), data.orderId))!;
    expect(order.row).toMatchObject({
      quoteId: quote.row.id,
      subscriptionId: quote.row.subscriptionId,
      validationId,
      paymentStatus: "Paid",
      shippingStatus: "Received",
      tax: quote.row.tax,
      shippingAmount: quote.row.shippingCost,
      shipMethod: quote.row.shippingMethod,
    });
    expect(order.lineItems).toEqual(quote.lineItems);
    expect(order.grandTotal).toBe(quote.grandTotal);
    expect(order.balanceDue).toBe(0);
    expect(order.row.shippingAddressId).not.toBe(quote.row.shippingAddressId);
    const [copy] = await db().select().from(addresses).where(eq(addresses.id, order.row.shippingAddressId!));
    expect(copy).toMatchObject({ line1: "100 Research Park Dr", city: "Boston" });
    const [closed] = await db().select().from(quotes).where(eq(quotes.id, quote.row.id));
    expect(closed).toMatchObject({ status: "Closed", orderId: data.orderId });
  });

  it("charges once, makes one order and answers alike to 20 parallel submits with one key", async () => {
    const form = await quoteForm(DEMO.openQuoteId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await guest().form(quotePath(DEMO.openQuoteToken), form);
        return `${res.status} ${await res.text()}`;
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^200 /);
    expect(await count(sandboxCharges)).toBe(1);
    expect(
      await db().select().from(payments).where(eq(payments.idempotencyKey, form.idempotencyKey)),
    ).toHaveLength(1);
    expect(await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId))).toHaveLength(1);
  });

  it("charges once when two keys pay one record at the same time", async () => {
    const forms = await Promise.all(Array.from({ length: 4 }, () => quoteForm(DEMO.openQuoteId)));
    const statuses = await Promise.all(
      forms.map(async (form) => (await guest().form(quotePath(DEMO.openQuoteToken), form)).status),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect(await count(sandboxCharges)).toBe(1);
    expect(await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId))).toHaveLength(1);
  });

  it("answers a retry of a finished payment with the first answer, byte for byte", async () => {
    const form = await orderForm(PART_PAID);
    const first = await guest().form(payPath(PART_PAID), form);
    const again = await guest().form(payPath(PART_PAID), form);
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(await first.text());
    expect(await count(sandboxCharges)).toBe(1);
  });

  it.each([
    ["a declined card", "4000 0000 0000 0002", {}, "cardNumber", CARD_MESSAGES.declined],
    ["a wrong security code", "4000 0000 0000 0127", {}, "cardCvv", CARD_MESSAGES.wrongCvv],
    ["an expired card", "4000 0000 0000 0069", {}, "cardExpirationYear", CARD_MESSAGES.expired],
    ["a processing error", "4000 0000 0000 0119", {}, null, CARD_MESSAGES.processing],
    ["a number that fails the checksum", "4242 4242 4242 4241", {}, "cardNumber", CARD_MESSAGES.number],
    [
      "an earlier month of this year (beside the month)",
      CARD,
      { cardExpirationMonth: "10", cardExpirationYear: "26" },
      "cardExpirationMonth",
      CARD_MESSAGES.expired,
    ],
    [
      "an earlier year (beside the year)",
      CARD,
      { cardExpirationMonth: "12", cardExpirationYear: "25" },
      "cardExpirationYear",
      CARD_MESSAGES.expired,
    ],
    ["a 4-digit code on a Visa", CARD, { cardCvv: "8641" }, "cardCvv", CARD_MESSAGES.wrongCvv],
  ])(
    "refuses %s with 402 beside its field and stores nothing but the failed attempt",
    async (_, number, over, field, message) => {
      const before = await orderRecord(db(), PART_PAID);
      const form = await orderForm(PART_PAID, { cardNumber: number, ...over });
      const res = await guest().form(payPath(PART_PAID), form);
      expect(res.status).toBe(402);
      expect((await res.json()).data).toEqual([{ field, message }]);
      expect(await orderRecord(db(), PART_PAID)).toEqual(before);
      expect(await count(sandboxCharges)).toBe(0);
      const attempts = await db().select().from(paymentAttempts);
      expect(attempts.map((a) => a.status)).toEqual(["failed"]);
      const quoteRes = await guest().form(
        quotePath(DEMO.openQuoteToken),
        await quoteForm(DEMO.openQuoteId, { cardNumber: number, ...over }),
      );
      expect(quoteRes.status).toBe(402);
      expect(await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId))).toEqual([]);
    },
  );

  it("refuses an amount the server does not owe with 409 and charges nothing", async () => {
    const balance = await balanceOf(PART_PAID);
    for (const form of [
      await orderForm(PART_PAID, { balanceDue: String(balance - 1), paymentAmount: String(balance - 1) }),
      await orderForm(PART_PAID, { paymentAmount: "1" }),
    ]) {
      const res = await guest().form(payPath(PART_PAID), form);
      expect(res.status).toBe(409);
      expect((await res.json()).data).toEqual([{ field: null, message: AMOUNT_CHANGED }]);
    }
    const quoteRes = await guest().form(
      quotePath(DEMO.openQuoteToken),
      await quoteForm(DEMO.openQuoteId, { grandTotal: "100" }),
    );
    expect(quoteRes.status).toBe(409);
    expect(await count(sandboxCharges)).toBe(0);
    expect(await db().select().from(paymentAttempts)).toEqual([]);
  });

  it("refuses a key reused with other details", async () => {
    const form = await orderForm(PART_PAID);
    expect((await guest().form(payPath(PART_PAID), form)).status).toBe(200);
    const res = await guest().form(payPath(PART_PAID), { ...form, email: "someone.else@example.org" });
    expect(res.status).toBe(409);
    expect((await res.json()).data).toEqual([{ field: null, message: KEY_REUSED }]);
    expect(await count(sandboxCharges)).toBe(1);
  });

  it.each([
    ["a paid order", () => payPath(5004), ORDER_NOT_PAYABLE],
    ["a cancelled order", () => payPath(5005), ORDER_NOT_PAYABLE],
    ["an ordered quote", () => quotePath(DEMO.closedQuoteToken), QUOTE_ORDERED],
    ["an expired quote", () => quotePath(demoHexToken("quote-1003")), QUOTE_EXPIRED],
  ])("refuses to charge %s with 409", async (_, path, message) => {
    const res = await guest().form(
      path(),
      cardForm({ balanceDue: "100", paymentAmount: "100", grandTotal: "100" }),
    );
    expect(res.status).toBe(409);
    expect((await res.json()).data).toEqual([{ field: null, message }]);
    expect(await count(sandboxCharges)).toBe(0);
  });

  it.each([
    ["an unknown order", "/order/public/ORD-5003-wrongtoken/pay-amount-due"],
    ["another order's token", `/order/public/ORD-5003-${demoToken("order-5001")}/pay-amount-due`],
    ["a malformed reference", "/order/public/ORD-99999999999999-x/pay-amount-due"],
    ["an unknown quote", `/quote/public/${"0".repeat(32)}/order`],
    ["a quote number instead of its token", "/quote/public/QUO-1001/order"],
  ])("answers 404 for %s", async (_, path) => {
    const res = await guest().form(path, cardForm({ balanceDue: "1", paymentAmount: "1", grandTotal: "1" }));
    expect(res.status).toBe(404);
    expect(await count(sandboxCharges)).toBe(0);
  });

  it("mails a receipt with the amount, the last four digits and the order's link, never the number", async () => {
    const balance = await balanceOf(PART_PAID);
    await guest().form(payPath(PART_PAID), await orderForm(PART_PAID));
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, EMAIL));
    expect(mail!.text).toContain(formatMoney(balance));
    expect(mail!.text).toContain("Visa ending in 4242");
    expect(mail!.text).toContain("ORD-5003");
    expect(mail!.text).toContain(`http://localhost:4321/p/order/${orderRef(PART_PAID)}`);
    expect(mail!.text).not.toContain(CARD);
  });

  it("builds the receipt's link from the configured public origin, never from Host", async () => {
    const app = buildApp({
      db: db(),
      config: testConfig({ PUBLIC_ORIGIN: "https://portal.example.com" }),
      now: () => TEST_NOW,
    });
    await browser(app, "https://portal.example.com").form(payPath(PART_PAID), await orderForm(PART_PAID));
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, EMAIL));
    expect(mail!.text).toContain(`https://portal.example.com/p/order/${orderRef(PART_PAID)}`);
  });

  it("keeps a payment whose receipt mail fails", async () => {
    const app = buildApp({
      db: db(),
      config: testConfig(),
      now: () => TEST_NOW,
      mailer: { send: () => Promise.reject(new Error("SMTP down")) },
    });
    const res = await browser(app, ORIGIN).form(payPath(PART_PAID), await orderForm(PART_PAID));
    expect(res.status).toBe(200);
    expect(await balanceOf(PART_PAID)).toBe(0);
  });

  it("serves the receipt as a PDF attachment, and 404 for another order's payment", async () => {
    const res = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID));
    const { data } = await res.json();
    const pdf = await guest().get(data.receiptPath);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="receipt-ORD-5003-${data.paymentId}.pdf"`,
    );
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.includes(CARD)).toBe(false);
    const [other] = await db().select().from(payments).where(eq(payments.orderId, 5004));
    for (const path of [
      `/order/public/${orderRef(PART_PAID)}/receipt/${other!.id}`,
      `/order/public/${orderRef(5004)}x/receipt/${other!.id}`,
      `/order/public/${orderRef(PART_PAID)}/receipt/abc`,
      `/order/public/${orderRef(PART_PAID)}/receipt/99999999999`,
      `/order/public/ORD-5003-wrong/receipt/${data.paymentId}`,
    ]) {
      expect((await guest().get(path)).status, path).toBe(404);
    }
  });

  it("limits new attempts on one record (card testing) with 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const form = await orderForm(PART_PAID, { cardNumber: "4000 0000 0000 0002" });
      statuses.push((await guest().form(payPath(PART_PAID), form)).status);
    }
    expect(statuses).toEqual([...Array(10).fill(402), 429]);
  });
});

describe("guest payments after a crash", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const LATER = new Date(TEST_NOW.getTime() + 2 * 60_000);
  /**
   * An app whose gateway charges and then fails to answer: the state a kill -9 between the
   * charge and the rows leaves too (the charge made, the attempt pending, no order).
   */
  const crashingApp = () =>
    buildApp({ db: db(), config: testConfig(), now: () => TEST_NOW, payments: crashAfterCharge(db()) });
  const laterApp = () => buildApp({ db: db(), config: testConfig(), now: () => LATER });
  const quoteForm = async (over: Record<string, string> = {}) =>
    cardForm({ grandTotal: String((await quoteRecord(db(), DEMO.openQuoteId))!.grandTotal), ...over });
  const charges = async () => (await db().select().from(sandboxCharges)).length;
  afterEach(async () => {
    expect(await cardDataIn(db())).toEqual([]);
  });

  it("finishes a stale attempt on the retry of its key, with the first charge and no second", async () => {
    const form = await quoteForm();
    const crashed = await browser(crashingApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), form);
    expect(crashed.status).toBe(409);
    expect((await crashed.json()).data).toEqual([{ field: null, message: STILL_PROCESSING }]);
    expect(await charges()).toBe(1);
    expect(await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId))).toEqual([]);
    const retry = await browser(laterApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), form);
    expect(retry.status).toBe(200);
    expect(await charges()).toBe(1);
    const made = await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId));
    expect(made).toHaveLength(1);
    expect(
      await db().select().from(orderLineItems).where(eq(orderLineItems.orderId, made[0]!.id)),
    ).toHaveLength(3);
  });

  it("finishes another key's stale attempt with its charge before refusing the new one", async () => {
    const first = await quoteForm();
    await browser(crashingApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), first);
    const second = await browser(laterApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), await quoteForm());
    expect(second.status).toBe(409);
    expect((await second.json()).data).toEqual([{ field: null, message: QUOTE_ORDERED }]);
    expect(await charges()).toBe(1);
    expect(await db().select().from(orders).where(eq(orders.quoteId, DEMO.openQuoteId))).toHaveLength(1);
    const retry = await browser(laterApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), first);
    expect(retry.status).toBe(200);
  });

  it("fails a stale attempt that was never charged and lets the next payment through", async () => {
    const stuck = await quoteForm();
    await db()
      .insert(paymentAttempts)
      .values({
        idempotencyKey: stuck.idempotencyKey,
        subject: `quote:${DEMO.openQuoteId}`,
        fingerprint: "from a process that died before charging",
        status: "pending",
        details: { email: EMAIL, purchaseOrderNumber: null },
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      });
    const res = await browser(laterApp(), ORIGIN).form(quotePath(DEMO.openQuoteToken), await quoteForm());
    expect(res.status).toBe(200);
    expect(await charges()).toBe(1);
    const [old] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.idempotencyKey, stuck.idempotencyKey));
    expect(old!.status).toBe("failed");
  });
});

type Db = Parameters<typeof buildApp>[0]["db"];

/** The sandbox gateway of the app's database, throwing right after each charge it makes. */
function crashAfterCharge(db: Db): PaymentGateway {
  const sandbox = createSandboxGateway(sandboxChargeStore(db), () => TEST_NOW);
  return {
    find: (key) => sandbox.find(key),
    async charge(request) {
      await sandbox.charge(request);
      throw new Error("simulated crash after the charge");
    },
  };
}

/** Values of a row (nested json included), with the names they sit under. */
function* entriesOf(value: unknown, name = ""): Generator<[string, unknown]> {
  if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* entriesOf(v, Array.isArray(value) ? name : k);
  else yield [name, value];
}

/** Rows of any table holding a card number, the code, or a field named like either. */
const cardDataIn = (db: Db) =>
  rowsWhere(
    db,
    (row) =>
      /4242\D?4242\D?4242\D?4242|4000\D?0000\D?0000\D?0\d{3}/.test(row) ||
      [...entriesOf(JSON.parse(row))].some(
        ([name, v]) => /cvv|cvc|card_?number/i.test(name) || v === CVV || v === `${CVV}1`,
      ),
  );
