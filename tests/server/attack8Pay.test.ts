import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import { orders, outbox, paymentAttempts, payments, sandboxCharges } from "../../server/db/schema/index.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { findAttempt, startAttempt, touchAttempt } from "../../server/data/paymentAttempts.ts";
import { sandboxChargeStore } from "../../server/data/payments.ts";
import { quoteRecord } from "../../server/data/quotes.ts";
import { HEARTBEAT_MS, KEY_REUSED } from "../../server/flows/paymentFlow.ts";
import { DEMO, demoToken } from "../../server/seed/demo.ts";
import { createSandboxGateway, type PaymentGateway } from "../../server/services/payments.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { browser } from "./client.ts";
import {
  captureConsole,
  cardCodeIn,
  cardFormFor,
  newKey,
  orderRef,
  payPath,
  quotePath,
  rowsWhere,
} from "./guestPayKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Attacks on guest payments (issue 8, helper A8): tampered amounts, keys moved between
 * records or reused after a decline, parallel submits with many keys, a slow gateway, card
 * data in answers, logs and rows, receipts of other payments, cross-site posts, odd input.
 */

const ORIGIN = "http://localhost";
/** A code no seed row has: any trace of it is a leak. */
const CVV = "739";
const CARD = "4242424242424242";
/** Passes Luhn, ends like the declined test card, and is not a test card: the sandbox charges it. */
const SAME_LAST4_AS_DECLINED = "4242424242400002";
const OPEN = 5001;
const PART_PAID = 5003;
const cardForm = cardFormFor(CVV, "attacker@example.org");

const printed = captureConsole();
afterAll(() => {
  const text = printed.join("\n");
  expect(text).not.toMatch(/4242\D?4242\D?4242\D?4242|4242\D?4242\D?4240\D?0002|4000\D?0000\D?0000\D?0\d{3}/);
  expect(text).not.toMatch(cardCodeIn(CVV));
});

type Db = Parameters<typeof buildApp>[0]["db"];

/** Every row of every table (as JSON text) that holds a card number or the code. */
const cardDataIn = (db: Db) =>
  rowsWhere(
    db,
    (row) =>
      /4242\D?4242\D?42\d\d\D?\d{4}|4000\D?0000\D?0000\D?0\d{3}/.test(row) || cardCodeIn(CVV).test(row),
  );

describe("attacks on guest payments", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const guest = () => browser(ctx.app, ORIGIN);
  const balanceOf = async (id: number) => (await orderRecord(db(), id))!.balanceDue;
  const orderForm = async (id: number, over: Record<string, string> = {}) => {
    const balance = String(await balanceOf(id));
    return cardForm({ balanceDue: balance, paymentAmount: balance, ...over });
  };
  const quoteForm = async (over: Record<string, string> = {}) =>
    cardForm({ grandTotal: String((await quoteRecord(db(), DEMO.openQuoteId))!.grandTotal), ...over });
  const charges = async () => (await db().select().from(sandboxCharges)).length;

  afterEach(async () => {
    expect(await cardDataIn(db())).toEqual([]);
  });

  it.each([
    ["negative", "-1"],
    ["fractional", "0.5"],
    ["beyond a safe integer", "9007199254740993"],
    ["infinite", "1e400"],
    ["not a number", "NaN"],
    ["empty", ""],
    ["hexadecimal", "0x10"],
  ])("refuses a %s amount with a 4xx and charges nothing", async (_, amount) => {
    for (const over of [{ balanceDue: amount }, { paymentAmount: amount }]) {
      const res = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID, over));
      expect([over, res.status]).toEqual([over, expect.toSatisfy((s: number) => s >= 400 && s < 500)]);
    }
    const res = await guest().form(quotePath(DEMO.openQuoteToken), await quoteForm({ grandTotal: amount }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await charges()).toBe(0);
  });

  it("refuses a shown amount spelled another way (1e2, +, hex, empty) beside its field, charging nothing", async () => {
    const balance = await balanceOf(PART_PAID);
    for (const spelled of [
      `${(balance / 100).toString()}e2`,
      ` +${balance} `,
      `0x${balance.toString(16)}`,
      "",
    ]) {
      const res = await guest().form(
        payPath(PART_PAID),
        await orderForm(PART_PAID, { balanceDue: spelled, paymentAmount: spelled }),
      );
      expect(res.status, spelled).toBe(400);
      expect((await res.json()).data).toEqual([
        { field: "balanceDue", message: "The amount must be a whole number of cents." },
        { field: "paymentAmount", message: "The amount must be a whole number of cents." },
      ]);
    }
    expect(await charges()).toBe(0);
    // Spaces around the digits are only a form's spacing.
    const res = await guest().form(
      payPath(PART_PAID),
      await orderForm(PART_PAID, { balanceDue: ` ${balance} `, paymentAmount: String(balance) }),
    );
    expect(res.status).toBe(200);
    const [charge] = await db().select().from(sandboxCharges);
    expect(charge!.amount).toBe(balance);
  });

  it("refuses a repeated amount field that tries to show one amount and pay another", async () => {
    const balance = await balanceOf(PART_PAID);
    const form = await orderForm(PART_PAID);
    const body = `${new URLSearchParams(form)}&paymentAmount=1&balanceDue=1`;
    const res = await ctx.app.request(`${ORIGIN}${payPath(PART_PAID)}`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect([400, 409]).toContain(res.status);
    expect(await charges()).toBe(0);
    expect(await balanceOf(PART_PAID)).toBe(balance);
  });

  it("refuses a key that paid one record when it is sent for another, in turn or at once", async () => {
    const key = newKey();
    expect(
      (await guest().form(payPath(PART_PAID), await orderForm(PART_PAID, { idempotencyKey: key }))).status,
    ).toBe(200);
    const moved = await guest().form(payPath(OPEN), await orderForm(OPEN, { idempotencyKey: key }));
    expect(moved.status).toBe(409);
    expect((await moved.json()).data).toEqual([{ field: null, message: KEY_REUSED }]);
    const shared = newKey();
    const [a, b] = await Promise.all([
      guest().form(payPath(OPEN), await orderForm(OPEN, { idempotencyKey: shared })),
      guest().form(quotePath(DEMO.openQuoteToken), await quoteForm({ idempotencyKey: shared })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await charges()).toBe(2);
  });

  it("answers a key reused after a decline with the decline, whatever card comes with it", async () => {
    const key = newKey();
    const declined = await guest().form(
      payPath(PART_PAID),
      await orderForm(PART_PAID, { cardNumber: "4000000000000002", idempotencyKey: key }),
    );
    expect(declined.status).toBe(402);
    // The same last four and expiry: the same attempt, so its stored answer.
    const sameTail = await guest().form(
      payPath(PART_PAID),
      await orderForm(PART_PAID, { cardNumber: SAME_LAST4_AS_DECLINED, idempotencyKey: key }),
    );
    expect(sameTail.status).toBe(402);
    expect((await sameTail.json()).data).toEqual([{ field: "cardNumber", message: CARD_MESSAGES.declined }]);
    const other = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID, { idempotencyKey: key }));
    expect(other.status).toBe(409);
    expect(await charges()).toBe(0);
    expect((await guest().form(payPath(PART_PAID), await orderForm(PART_PAID))).status).toBe(200);
    expect(await charges()).toBe(1);
  });

  it("charges one order once when 20 submits with 20 keys arrive together", async () => {
    const forms = await Promise.all(Array.from({ length: 20 }, () => orderForm(OPEN)));
    const statuses = await Promise.all(forms.map(async (f) => (await guest().form(payPath(OPEN), f)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(await charges()).toBe(1);
    expect(await db().select().from(payments).where(eq(payments.orderId, OPEN))).toHaveLength(1);
    // The later ones, sent after the first finished, find nothing to pay.
    const late = await guest().form(payPath(OPEN), await orderForm(OPEN));
    expect(late.status).toBe(409);
  });

  it("never echoes a card number or code in a refusal", async () => {
    for (const over of [
      { cardNumber: "4242 4242 4242 424x" },
      { cardNumber: "4242424242424242424242" },
      { cardCvv: `${CVV}99` },
      { cardCvv: `x${CVV}` },
      { cardExpirationMonth: CVV },
      { email: `${CARD}@${CVV}` },
    ]) {
      const res = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID, over));
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).not.toContain("4242");
      expect(text).not.toContain(CVV);
    }
  });

  it("serves no receipt for another order's payment, however its id is spelled", async () => {
    const res = await guest().form(payPath(PART_PAID), await orderForm(PART_PAID));
    const { paymentId } = (await res.json()).data;
    const [other] = await db().select().from(payments).where(eq(payments.orderId, 5004));
    for (const id of [
      `0${paymentId}`,
      `${paymentId}.0`,
      `+${paymentId}`,
      `${paymentId}%20`,
      `${paymentId}e0`,
      String(other!.id),
      "-1",
      "9".repeat(40),
    ])
      expect([id, (await guest().get(`/order/public/${orderRef(PART_PAID)}/receipt/${id}`)).status]).toEqual([
        id,
        404,
      ]);
    for (const ref of [
      orderRef(5004),
      `ORD-5003-${demoToken("order-5004")}`,
      "ORD-5003",
      `5003-${demoToken("order-5003").toLowerCase()}`,
    ])
      expect([ref, (await guest().get(`/order/public/${ref}/receipt/${paymentId}`)).status]).toEqual([
        ref,
        404,
      ]);
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["a null Origin from another site", { origin: "null", "sec-fetch-site": "cross-site" }],
    ["no Origin but a cross-site fetch", { "sec-fetch-site": "cross-site" }],
    ["a look-alike Origin", { origin: "http://localhost.evil.example" }],
  ])("refuses a payment posted with %s, and charges nothing", async (_, headers) => {
    for (const [path, form] of [
      [payPath(PART_PAID), await orderForm(PART_PAID)],
      [quotePath(DEMO.openQuoteToken), await quoteForm()],
    ] as const) {
      const res = await ctx.app.request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form).toString(),
      });
      expect(res.status).toBe(403);
    }
    expect(await charges()).toBe(0);
  });

  it("answers odd bodies with a 4xx, never a 500", async () => {
    // No type: the body's own (multipart with its boundary).
    const post = async (
      path: string,
      body: BodyInit,
      type: string | null = "application/x-www-form-urlencoded",
    ) =>
      ctx.app.request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { origin: ORIGIN, ...(type ? { "content-type": type } : {}) },
        body,
      });
    const form = await orderForm(PART_PAID);
    const multipart = new FormData();
    for (const [k, v] of Object.entries(form)) multipart.set(k, v);
    multipart.set("cardNumber", new Blob([CARD]), "card.txt");
    const cases: [string, Promise<Response>][] = [
      ["a huge form", post(payPath(PART_PAID), `${new URLSearchParams(form)}&pad=${"x".repeat(40_000)}`)],
      ["many fields", post(payPath(PART_PAID), Array.from({ length: 500 }, (_, i) => `f${i}=1`).join("&"))],
      ["a file for the number", post(payPath(PART_PAID), multipart, null)],
      [
        "a NUL in the email",
        post(payPath(PART_PAID), new URLSearchParams({ ...form, email: "a\u0000@b.c" }).toString()),
      ],
      [
        "a NUL in the PO number",
        post(
          payPath(PART_PAID),
          new URLSearchParams({ ...form, purchaseOrderNumber: "PO\u0000" }).toString(),
        ),
      ],
      ["JSON", post(payPath(PART_PAID), JSON.stringify(form), "application/json")],
      ["broken %-encoding", post(payPath(PART_PAID), "cardNumber=%E0%A4%A&email=%ZZ")],
      [
        "a %-encoded NUL in the ref",
        post("/order/public/ORD-5003-%00/pay-amount-due", new URLSearchParams(form).toString()),
      ],
      [
        "broken %-encoding in the ref",
        post("/order/public/ORD-5003-%E0%A4%A/pay-amount-due", new URLSearchParams(form).toString()),
      ],
      ["a slash in the token", post("/quote/public/..%2F..%2Fx/order", new URLSearchParams(form).toString())],
      [
        "an upper-case token",
        post(quotePath(DEMO.openQuoteToken.toUpperCase()), new URLSearchParams(await quoteForm()).toString()),
      ],
    ];
    for (const [name, pending] of cases) {
      const res = await pending;
      expect([name, res.status < 500 && res.status >= 400]).toEqual([name, true]);
    }
    expect(await charges()).toBe(0);
  });

  it("takes unicode in the email's name and the PO number and keeps it as sent", async () => {
    const res = await guest().form(
      payPath(PART_PAID),
      await orderForm(PART_PAID, { purchaseOrderNumber: "Bestellung №42 ✓ 😀", email: "zoë@example.org" }),
    );
    expect(res.status).toBe(200);
    {
      const [payment] = await db()
        .select()
        .from(payments)
        .where(eq(payments.poNumber, "Bestellung №42 ✓ 😀"));
      expect(payment).toBeDefined();
      expect((await db().select().from(outbox)).map((m) => m.to)).toContain("zoë@example.org");
    }
  });
});

describe("a slow gateway", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  afterEach(() => {
    vi.useRealTimers();
  });

  it("never moves a heartbeat back when an earlier one lands last (a pool runs them out of order)", async () => {
    const key = newKey();
    const at = (seconds: number) => new Date(TEST_NOW.getTime() + seconds * 1000);
    const details = { email: "a@example.org", purchaseOrderNumber: null };
    expect(
      await startAttempt(db(), { key, subject: "order:heartbeat-test", fingerprint: "f", details }, at(0)),
    ).toBe(true);
    await touchAttempt(db(), key, at(60));
    await touchAttempt(db(), key, at(45));
    expect((await findAttempt(db(), key))!.updatedAt).toEqual(at(60));
  });

  it("keeps a live attempt its own while the gateway takes over a minute: a second key is refused, one charge", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let clock = TEST_NOW;
    const now = () => clock;
    const sandbox = createSandboxGateway(sandboxChargeStore(db()), now);
    const first = newKey();
    let second: Response | null = null;
    const app: ReturnType<typeof buildApp> = buildApp({
      db: db(),
      config: testConfig(),
      now,
      payments: slow(),
    });
    function slow(): PaymentGateway {
      return {
        find: (key) => sandbox.find(key),
        async charge(request) {
          if (request.idempotencyKey === first) {
            // The processor takes 61 s; the request that called it is alive all along.
            for (let s = 0; s < 61; s++) {
              clock = new Date(clock.getTime() + 1000);
              await vi.advanceTimersByTimeAsync(1000);
            }
            await waitFor(async () => {
              const [row] = await db()
                .select()
                .from(paymentAttempts)
                .where(eq(paymentAttempts.idempotencyKey, first));
              return now().getTime() - row!.updatedAt.getTime() < HEARTBEAT_MS + 1000;
            });
            const balance = String((await orderRecord(db(), PART_PAID))!.balanceDue);
            second = await browser(app, ORIGIN).form(
              payPath(PART_PAID),
              cardForm({ balanceDue: balance, paymentAmount: balance }),
            );
          }
          return sandbox.charge(request);
        },
      };
    }
    const balance = String((await orderRecord(db(), PART_PAID))!.balanceDue);
    const res = await browser(app, ORIGIN).form(
      payPath(PART_PAID),
      cardForm({ balanceDue: balance, paymentAmount: balance, idempotencyKey: first }),
    );
    expect(res.status).toBe(200);
    expect(second!.status).toBe(409);
    expect((await db().select().from(sandboxCharges)).length).toBe(1);
    expect(await db().select().from(payments).where(eq(payments.idempotencyKey, first))).toHaveLength(1);
    expect(await db().select().from(orders).where(eq(orders.id, PART_PAID))).toMatchObject([
      { paymentStatus: "Paid" },
    ]);
  });
});

describe("a gateway that fails", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("logs its error without the card number or code, even when its message quotes them", async () => {
    const talkative: PaymentGateway = {
      find: async () => null,
      async charge({ card }) {
        throw new Error(
          `upstream 502 for card=${card.number}&exp=${card.expMonth}/${card.expYear}&cvc=${card.cvv}`,
        );
      },
    };
    const app = buildApp({ db: db(), config: testConfig(), now: () => TEST_NOW, payments: talkative });
    const before = printed.length;
    const balance = String((await orderRecord(db(), PART_PAID))!.balanceDue);
    const res = await browser(app, ORIGIN).form(
      payPath(PART_PAID),
      cardForm({ balanceDue: balance, paymentAmount: balance }),
    );
    expect(res.status).toBe(409);
    const logged = printed.slice(before).join("\n");
    expect(logged).toContain("payment gateway failed");
    expect(logged).not.toMatch(/4242\D?4242/);
    expect(logged).not.toMatch(cardCodeIn(CVV));
    // The line is still useful: what happened, without what was sent.
    expect(logged).toContain("upstream 502");
  });
});

/** Polls until `done` says yes (a background write landed), for at most two seconds. */
async function waitFor(done: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("waitFor: gave up");
}
