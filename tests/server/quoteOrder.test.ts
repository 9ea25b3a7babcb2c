import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import {
  orders,
  outbox,
  quoteLineItems,
  quotes,
  sandboxCharges,
  uploadedFiles,
} from "../../server/db/schema/index.ts";
import { rows } from "../../server/db/client.ts";
import { quoteRecord } from "../../server/data/quotes.ts";
import { AMOUNT_CHANGED, KEY_REUSED } from "../../server/flows/paymentFlow.ts";
import { QUOTE_EXPIRED, QUOTE_ORDERED } from "../../server/flows/paymentPlans.ts";
import { SHIPPING_MESSAGES } from "../../server/services/shippingRates.ts";
import { displayName, UPLOAD_MESSAGES } from "../../server/services/uploads.ts";
import { TOTAL_TOO_LARGE } from "../../src/api/payments.ts";
import { QUOTE_ORDER_MESSAGES } from "../../src/api/quoteOrder.ts";
import { cents } from "../../src/domain/brand.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { newKey } from "./guestPayKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const OPEN = 1001; // Acme, Boston MA, 8 items
const EURO_NO_SHIPPING = 1004;
const FOREIGN = 1005; // Northwind's
const PART_PAID = 5003;
const NORTHWIND_ORDER = 5012;

/** An 1×1 PNG, a CSV, and a Windows executable (MZ header) to rename. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const CSV = Buffer.from("po,amount\nPO-77,1200.00\n");
const EXE = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00", "latin1"), Buffer.alloc(64)]);

const BOSTON = {
  line1: "100 Research Park Dr",
  city: "Boston",
  state: "MA",
  countryCode: "US",
  zip: "02110",
};

describe("signed-in quote order and balance payment", () => {
  const ctx = useTestApp({ seeded: true });
  const dataDir = mkdtempSync(join(tmpdir(), "q3-uploads-"));
  let app: ReturnType<typeof buildApp>;
  beforeAll(() => {
    app = buildApp({ db: ctx.database.db, config: testConfig({ DATA_DIR: dataDir }), now: () => TEST_NOW });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = () => ctx.database.db;

  const as = async (email: string) => {
    const b = browser(app, ORIGIN);
    await signIn(b, email);
    return b;
  };
  /** A multipart post as the page's FormData sends it, with the session cookie. */
  const multipart = (b: Browser, path: string, fields: Record<string, string>, file?: File) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    if (file) body.set("purchaseOrderFile", file);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return app.request(`${ORIGIN}${path}`, { method: "POST", headers: { origin: ORIGIN, cookie }, body });
  };
  const rates = (b: Browser, over: Record<string, string> = {}) =>
    b.form("/quote/shipping-rates", { quoteId: String(OPEN), ...BOSTON, ...over });
  const taxOf = (b: Browser, shippingAmount: number, over: Record<string, string> = {}) =>
    b.form("/quote/tax", {
      quoteId: String(OPEN),
      shippingMethod: "Ground",
      shippingAmount: String(shippingAmount),
      line1: BOSTON.line1,
      city: BOSTON.city,
      region: "MA",
      countryCode: "US",
      postalCode: BOSTON.zip,
      ...over,
    });
  /** The order form for quote 1001 shipped UPS Ground to Boston, priced as the page would price it. */
  const orderForm = async (b: Browser, over: Record<string, string> = {}) => {
    const options = (await (await rates(b)).json()).data as { serviceName: string; priceCents: number }[];
    const ground = options.find((o) => o.serviceName === "Ground")!;
    const tax = (await (await taxOf(b, ground.priceCents)).json()).data.taxCents as number;
    return {
      quoteId: String(OPEN),
      paymentMethod: "Online - CC",
      contactPhone: "617-555-0142",
      cardNumber: "4242 4242 4242 4242",
      cardExpirationMonth: "12",
      cardExpirationYear: "28",
      cardCvv: "123",
      needsShipping: "true",
      shippingCarrier: "UPS",
      shippingMethod: "Ground",
      shippingPrice: String(ground.priceCents),
      tax: String(tax),
      shippingAddressCompanyName: "Acme Labs",
      shippingAddressContactName: "Dana Whitfield",
      shippingAddressAddressLine1: "1 New Dock Rd",
      shippingAddressCity: "Boston",
      shippingAddressState: "MA",
      shippingAddressZip: "02110",
      shippingAddressCountryId: "1",
      idempotencyKey: newKey(),
      ...over,
    };
  };
  const poFile = (bytes: Buffer, name: string, type: string) =>
    new File([new Uint8Array(bytes)], name, { type });
  const poForm = async (b: Browser, over: Record<string, string> = {}) =>
    orderForm(b, { paymentMethod: "Purchase Order", purchaseOrderNumber: "PO-77", ...over });
  const errorsOf = async (res: Response) =>
    ((await res.json()) as { data: { field: string | null; message: string }[] }).data;
  const count = async (table: typeof orders | typeof sandboxCharges) =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
    )[0]!.n;

  describe("shipping rates", () => {
    it("lists every option for a Boston address, cheapest first, the disabled and foreign ones disabled", async () => {
      const res = await rates(await as("admin@example.com"));
      expect(res.status).toBe(200);
      const list = (await res.json()).data as Record<string, unknown>[];
      expect(list.map((o) => [o["serviceCode"], o["priceCents"], o["isDisabled"]])).toEqual([
        ["USPS-PRI", 995 + 150 * 7, true],
        ["UPS-GND", 1495 + 250 * 7, false],
        ["UPS-2DA", 2995 + 400 * 7, false],
        ["UPS-NDA", 5495 + 600 * 7, false],
        ["FDX-INTL", 8995 + 900 * 7, true],
      ]);
      expect(list[1]).toMatchObject({
        price: 32.45,
        displayPrice: "$32.45",
        carrierName: "UPS",
        serviceName: "Ground",
        name: "UPS Ground",
      });
    });

    it("offers the international service only, outside the US", async () => {
      const res = await rates(await as("admin@example.com"), {
        countryCode: "CA",
        state: "ON",
        city: "Toronto",
        zip: "M5J 2N8",
      });
      const open = ((await res.json()).data as { serviceCode: string; isDisabled: boolean }[]).filter(
        (o) => !o.isDisabled,
      );
      expect(open.map((o) => o.serviceCode)).toEqual(["FDX-INTL"]);
    });

    it("answers the address's problems as zip, line1, city and country field errors", async () => {
      const b = await as("admin@example.com");
      const res = await rates(b, { line1: "", city: " ", zip: "2110" });
      expect(res.status).toBe(400);
      expect(await errorsOf(res)).toEqual([
        { field: "line1", message: SHIPPING_MESSAGES.line1 },
        { field: "city", message: SHIPPING_MESSAGES.city },
        { field: "zip", message: SHIPPING_MESSAGES.zipUS },
      ]);
      const unknown = await rates(b, { countryCode: "ZZ" });
      expect(unknown.status).toBe(400);
      expect(await errorsOf(unknown)).toEqual([{ field: "country", message: "Choose a country." }]);
    });

    it("has no options for a quote that ships nothing", async () => {
      const res = await rates(await as("admin@example.com"), { quoteId: String(EURO_NO_SHIPPING) });
      expect((await res.json()).data).toEqual([]);
    });
  });

  describe("tax", () => {
    it("taxes goods and shipping at the region's rate, else the country's, rounded to the cent", async () => {
      const b = await as("admin@example.com");
      const subtotal = (await quoteRecord(db(), OPEN))!.subtotal;
      const tax = async (over: Record<string, string>) =>
        (await (await taxOf(b, 3245, over)).json()).data.taxCents;
      expect(await tax({})).toBe(Math.round(((subtotal + 3245) * 625) / 10_000));
      expect(await tax({ countryCode: "CA", region: "ON" })).toBe(
        Math.round(((subtotal + 3245) * 1300) / 10_000),
      );
      expect(await tax({ countryCode: "CA", region: "BC" })).toBe(
        Math.round(((subtotal + 3245) * 500) / 10_000),
      );
      expect(await tax({ region: "TX" })).toBe(0);
    });
  });

  describe("bad, missing and foreign ids", () => {
    const paths = ["/quote/shipping-rates", "/quote/tax", "/quote/order"];
    it.each(paths)(
      "%s answers 400 for a missing or malformed quote id, 404 for an unknown or foreign one",
      async (path) => {
        const b = await as("admin@example.com");
        const send = async (quoteId?: string) => {
          const fields = { ...(await orderForm(b)), ...BOSTON, shippingAmount: "0" } as Record<
            string,
            string
          >;
          if (quoteId === undefined) delete fields["quoteId"];
          else fields["quoteId"] = quoteId;
          return path === "/quote/order" ? multipart(b, path, fields) : b.form(path, fields);
        };
        expect((await send()).status).toBe(400);
        expect((await send("abc")).status).toBe(400);
        expect((await send("0")).status).toBe(400);
        expect((await send("2147483648")).status).toBe(400);
        expect((await send("999999")).status).toBe(404);
        expect((await send(String(FOREIGN))).status).toBe(404);
      },
    );

    it("refuses a closed, ordered or expired quote clearly", async () => {
      const b = await as("admin@example.com");
      const ordered = await multipart(b, "/quote/order", await orderForm(b, { quoteId: "1002" }));
      expect(ordered.status).toBe(409);
      expect(await errorsOf(ordered)).toEqual([{ field: null, message: QUOTE_ORDERED }]);
      const expired = await rates(b, { quoteId: "1003" });
      expect(expired.status).toBe(409);
      expect(await errorsOf(expired)).toEqual([{ field: null, message: QUOTE_EXPIRED }]);
    });

    it("pay-amount-due answers 400 for a missing order id, 404 for an unknown or foreign order", async () => {
      const b = await as("admin@example.com");
      const form = {
        cardNumber: "4242424242424242",
        cardExpirationMonth: "12",
        cardExpirationYear: "28",
        cardCvv: "123",
        balanceDue: "1",
        paymentAmount: "1",
        idempotencyKey: newKey(),
      };
      expect((await b.form("/order/pay-amount-due", form)).status).toBe(400);
      expect((await b.form("/order/pay-amount-due", { ...form, orderCrmId: "x1" })).status).toBe(400);
      expect((await b.form("/order/pay-amount-due", { ...form, orderCrmId: "999999" })).status).toBe(404);
      expect(
        (await b.form("/order/pay-amount-due", { ...form, orderCrmId: String(NORTHWIND_ORDER) })).status,
      ).toBe(404);
    });
  });

  describe("ordering by card", () => {
    it("places the order with the chosen shipping, recomputed tax and the new address, and the order reads back", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b);
      const res = await multipart(b, "/quote/order", form);
      expect(res.status).toBe(200);
      const { orderId } = (await res.json()).data as { orderId: number };
      const order = (await (await b.get(`/api/v1/orders/${orderId}`)).json()).data.orderDetails;
      expect(order).toMatchObject({
        shippingAmountCents: Number(form.shippingPrice),
        taxCents: Number(form.tax),
        shipCarrier: "UPS",
        shipMethod: "Ground",
        billingStatus: "Paid",
        paymentBalanceDue: 0,
      });
      expect(order.shippingAddress).toMatchObject({
        line1: "1 New Dock Rd",
        city: "Boston",
        country: { code: "US" },
        // Same recipient as the quote's address: its attention line and phone carry over.
        attention: "Receiving",
        phoneNumber: "617-555-0142",
      });
      expect(order.payments).toHaveLength(1);
      expect(order.payments[0].amountCents).toBe(order.grandTotalCents);
      const [quote] = await db().select().from(quotes).where(eq(quotes.id, OPEN));
      expect(quote).toMatchObject({ status: "Closed", orderId });
      // The payment's audit row names the quote it turned into the order, and no card data.
      const trail = await rows<{ action: string; new: unknown; t: string }>(
        db(),
        sql`select action, new, row_to_json(l)::text as t from audit_log l where action not like 'session.%'`,
      );
      expect(trail.map((r) => [r.action, r.new])).toEqual([
        ["order.payment", expect.objectContaining({ order: `ORD-${orderId}`, quote: `QUO-${OPEN}` })],
      ]);
      for (const card of ["4242 4242 4242 4242", "4242424242424242", "cvv", "Cvv"])
        expect(trail[0]!.t).not.toContain(card);
    });

    it("drops the quote address's attention for another recipient and keeps the contact phone", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b, {
        shippingAddressContactName: "Sam Dockhand",
        contactPhone: "617-555-0199",
      });
      const res = await multipart(b, "/quote/order", form);
      expect(res.status).toBe(200);
      const { orderId } = (await res.json()).data as { orderId: number };
      const order = (await (await b.get(`/api/v1/orders/${orderId}`)).json()).data.orderDetails;
      expect(order.shippingAddress).toMatchObject({
        contactName: "Sam Dockhand",
        attention: null,
        phoneNumber: "617-555-0199",
      });
      // The billing address the form left empty is the quote's, whole.
      expect(order.billingAddress).toMatchObject({
        contactName: "Accounts Payable",
        phoneNumber: "617-555-0100",
      });
    });

    it("refuses a tampered tax or shipping price with a clear 400, and charges nothing", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b);
      const tax = await multipart(b, "/quote/order", { ...form, tax: String(Number(form.tax) - 100) });
      expect(tax.status).toBe(400);
      expect(await errorsOf(tax)).toEqual([{ field: "tax", message: QUOTE_ORDER_MESSAGES.tax }]);
      const ship = await multipart(b, "/quote/order", { ...form, shippingPrice: "1" });
      expect(ship.status).toBe(400);
      expect((await errorsOf(ship))[0]).toEqual({
        field: "shippingPrice",
        message: QUOTE_ORDER_MESSAGES.shippingPrice,
      });
      const disabled = await multipart(b, "/quote/order", {
        ...form,
        shippingCarrier: "USPS",
        shippingMethod: "Priority Mail",
      });
      expect(await errorsOf(disabled)).toEqual([
        { field: "shippingMethod", message: QUOTE_ORDER_MESSAGES.shippingMethod },
      ]);
      expect(await count(sandboxCharges)).toBe(0);
    });

    it("makes one order and one charge from a double submit of one key", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b);
      const before = await count(orders);
      const answers = await Promise.all([1, 2, 3].map(() => multipart(b, "/quote/order", form)));
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(bodies.map((x) => x.data.orderId)).size).toBe(1);
      expect(await count(orders)).toBe(before + 1);
      expect(await count(sandboxCharges)).toBe(1);
    });

    it("puts the form's own errors beside cardNumber, cardCvv, cardExpirationYear, email and contactPhone", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b);
      const card = await multipart(b, "/quote/order", {
        ...form,
        cardNumber: "12",
        cardCvv: "x",
        cardExpirationYear: "2028",
      });
      expect((await errorsOf(card)).map((e) => [e.field, e.message])).toEqual([
        ["cardNumber", CARD_MESSAGES.number],
        ["cardExpirationYear", CARD_MESSAGES.year],
        ["cardCvv", CARD_MESSAGES.cvv],
      ]);
      const contact = await multipart(b, "/quote/order", {
        ...form,
        email: "nobody",
        contactPhone: "call me",
      });
      expect((await errorsOf(contact)).map((e) => e.field)).toEqual(["email", "contactPhone"]);
    });

    it("answers a retry of the key after the order is placed with the same order, and refuses other details", async () => {
      const b = await as("admin@example.com");
      const form = await orderForm(b);
      const first = await (await multipart(b, "/quote/order", form)).json();
      const retry = await multipart(b, "/quote/order", form);
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual(first);
      const again = await multipart(b, "/quote/order", { ...form, contactPhone: "617-555-0000" });
      expect(await errorsOf(again)).toEqual([{ field: null, message: KEY_REUSED }]);
    });
  });

  describe("ordering on terms", () => {
    it("accepts a real PNG, keeps it under a random name linked to the order and opens the order for invoicing", async () => {
      const b = await as("billing@example.com");
      const res = await multipart(
        b,
        "/quote/order",
        await poForm(b),
        poFile(PNG, "../../po scan.png", "image/png"),
      );
      expect(res.status).toBe(200);
      const { orderId } = (await res.json()).data;
      const order = (await (await b.get(`/api/v1/orders/${orderId}`)).json()).data.orderDetails;
      expect(order).toMatchObject({
        poNumber: "PO-77",
        billingStatus: "Open",
        paymentType: "Purchase Order",
        payments: [],
      });
      expect(order.paymentBalanceDueCents).toBe(order.grandTotalCents);
      const [file] = await db().select().from(uploadedFiles);
      expect(file).toMatchObject({
        contentType: "image/png",
        size: PNG.length,
        fileName: ".._.._po scan.png",
        orderId,
      });
      expect(file!.storedPath).toMatch(/^uploads\/[0-9a-f]{32}$/);
      expect(readdirSync(join(dataDir, "uploads"))).toContain(file!.storedPath.slice("uploads/".length));
      // The order on terms is recorded with the order it made, in the person's chain.
      const recorded = await rows<Record<string, unknown>>(
        db(),
        sql`select actor_kind, actor_label, entity_id, old, new from audit_log where action = 'quote.order'`,
      );
      expect(recorded).toEqual([
        {
          actor_kind: "user",
          actor_label: "billing@example.com",
          entity_id: `QUO-${OPEN}`,
          old: null,
          new: {
            order: `ORD-${orderId}`,
            paymentMethod: "purchase order",
            purchaseOrderNumber: "PO-77",
            purchaseOrderFile: ".._.._po scan.png",
            amountCents: order.grandTotalCents,
          },
        },
      ]);
    });

    it("keeps an outsider a Billing member names in an order on terms out of the subscription (issue 32)", async () => {
      // A quote the back office sent without a contact address: the form's is the only one.
      await db().update(quotes).set({ contactEmail: null }).where(eq(quotes.id, OPEN));
      const b = await as("billing@example.com");
      const outsider = "outsider@elsewhere.example";
      const form = await poForm(b, { email: outsider });
      const res = await multipart(b, "/quote/order", form, poFile(CSV, "po.csv", "text/csv"));
      expect(res.status).toBe(200);
      const { orderId } = (await res.json()).data as { orderId: number };
      const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
      expect([order!.contactEmail, order!.receiptEmail]).toEqual([null, outsider]);
      const stranger = browser(app, ORIGIN);
      await stranger.form("/user/new/sign-up", { emailAddress: outsider, referrer: `ord-${orderId}` });
      const [mail] = await db().select().from(outbox).orderBy(desc(outbox.id)).limit(1);
      const token = /token=([\w-]+)/.exec(mail!.text)![1]!;
      const fields = { token, firstName: "Out", lastName: "Sider", password: "a-good-password" };
      expect((await stranger.form("/user/validate", fields)).status).toBe(200);
      expect((await stranger.json("/api/v1/session/terms-accepted", {})).status).toBe(200);
      const info = (await (await stranger.get("/api/v1/session")).json()).data.sessionInformation;
      expect(info.activeSubscription.name).toBe(`${outsider} account`);
      expect((await stranger.get(`/api/v1/orders/${orderId}`)).status).toBe(404);
    });

    it("refuses an order whose address's tax takes the total past one payment, by card and on terms, and makes none (issue 32)", async () => {
      // A quote at the cap (the operations API lets it through), one line of 999,999,999,900.00.
      await db().delete(quoteLineItems).where(eq(quoteLineItems.quoteId, OPEN));
      await db()
        .insert(quoteLineItems)
        .values({
          quoteId: OPEN,
          productNumber: "CAP",
          description: "At the cap",
          quantity: 1,
          listPrice: cents(999_999_999_990_000),
        });
      const b = await as("admin@example.com");
      const ordersBefore = await count(orders);
      for (const [form, file] of [
        [await orderForm(b), undefined],
        [await poForm(b), poFile(CSV, "po.csv", "text/csv")],
      ] as const) {
        const res = await multipart(b, "/quote/order", form, file);
        expect(res.status).toBe(400);
        expect(await errorsOf(res)).toEqual([{ field: null, message: TOTAL_TOO_LARGE }]);
      }
      expect(await count(orders)).toBe(ordersBefore);
      expect(await count(sandboxCharges)).toBe(0);
    });

    it("accepts a CSV", async () => {
      const b = await as("admin@example.com");
      const res = await multipart(b, "/quote/order", await poForm(b), poFile(CSV, "po.csv", "text/csv"));
      expect(res.status).toBe(200);
    });

    it.each([
      ["a .exe renamed .pdf", "po.pdf", "application/pdf", UPLOAD_MESSAGES.type],
      ["a .exe renamed .png", "po.png", "image/png", UPLOAD_MESSAGES.content],
      ["a .exe renamed .txt", "po.txt", "text/plain", UPLOAD_MESSAGES.content],
      [
        "a .exe renamed .docx",
        "po.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        UPLOAD_MESSAGES.content,
      ],
      ["a PNG declared as a Word file", "po.doc", "application/msword", UPLOAD_MESSAGES.content],
    ])("refuses %s", async (_what, name, type, message) => {
      const b = await as("admin@example.com");
      const bytes = name === "po.doc" ? PNG : EXE;
      const res = await multipart(b, "/quote/order", await poForm(b), poFile(bytes, name, type));
      expect(res.status).toBe(400);
      expect(await errorsOf(res)).toEqual([{ field: "purchaseOrderFile", message }]);
      expect(await db().select().from(uploadedFiles)).toEqual([]);
    });

    it("asks for the file and the PO number", async () => {
      const b = await as("admin@example.com");
      const noFile = await multipart(b, "/quote/order", await poForm(b));
      expect(await errorsOf(noFile)).toEqual([
        { field: "purchaseOrderFile", message: UPLOAD_MESSAGES.missing },
      ]);
      const noNumber = await multipart(
        b,
        "/quote/order",
        await poForm(b, { purchaseOrderNumber: "" }),
        poFile(CSV, "po.csv", "text/csv"),
      );
      expect(await errorsOf(noNumber)).toEqual([
        { field: "purchaseOrderNumber", message: QUOTE_ORDER_MESSAGES.purchaseOrderNumber },
      ]);
    });

    it("makes one order from parallel submits of one key, and keeps one file", async () => {
      const b = await as("admin@example.com");
      const form = await poForm(b);
      const before = await count(orders);
      const answers = await Promise.all(
        [1, 2, 3].map(() => multipart(b, "/quote/order", form, poFile(CSV, "po.csv", "text/csv"))),
      );
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(bodies.map((x) => x.data.orderId)).size).toBe(1);
      expect(await count(orders)).toBe(before + 1);
      expect(await db().select().from(uploadedFiles)).toHaveLength(1);
    });
  });

  describe("paying an order's balance", () => {
    const payForm = (balance: number, over: Record<string, string> = {}) => ({
      orderCrmId: String(PART_PAID),
      cardNumber: "4242424242424242",
      cardExpirationMonth: "12",
      cardExpirationYear: "28",
      cardCvv: "123",
      balanceDue: String(balance),
      paymentAmount: String(balance),
      idempotencyKey: newKey(),
      ...over,
    });
    const balanceOf = async (b: Browser) =>
      (await (await b.get(`/api/v1/orders/${PART_PAID}`)).json()).data.orderDetails
        .paymentBalanceDueCents as number;

    it("pays the whole balance once and the order reads Paid", async () => {
      const b = await as("manager@example.com");
      const form = payForm(await balanceOf(b));
      const answers = await Promise.all([1, 2].map(() => b.form("/order/pay-amount-due", form)));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(await count(sandboxCharges)).toBe(1);
      const order = (await (await b.get(`/api/v1/orders/${PART_PAID}`)).json()).data.orderDetails;
      expect(order).toMatchObject({ billingStatus: "Paid", paymentBalanceDue: 0 });
    });

    it("refuses a balance that is no longer the order's", async () => {
      const b = await as("admin@example.com");
      const res = await b.form("/order/pay-amount-due", payForm((await balanceOf(b)) - 1));
      expect(res.status).toBe(409);
      expect(await errorsOf(res)).toEqual([{ field: null, message: AMOUNT_CHANGED }]);
    });
  });

  describe("who may pay", () => {
    it.each(["viewer@example.com", "provisioner@example.com"])(
      "%s cannot order a quote or pay an order (403)",
      async (email) => {
        const admin = await as("admin@example.com");
        const form = await orderForm(admin);
        const b = await as(email);
        expect((await multipart(b, "/quote/order", form)).status).toBe(403);
        expect((await rates(b)).status).toBe(403);
        const pay = await b.form("/order/pay-amount-due", {
          orderCrmId: String(PART_PAID),
          cardNumber: "4242424242424242",
          cardExpirationMonth: "12",
          cardExpirationYear: "28",
          cardCvv: "123",
          balanceDue: "1",
          paymentAmount: "1",
          idempotencyKey: newKey(),
        });
        expect(pay.status).toBe(403);
        expect(await count(sandboxCharges)).toBe(0);
      },
    );

    it("answers 401 without a session", async () => {
      const b = browser(app, ORIGIN);
      expect((await rates(b)).status).toBe(401);
      expect((await b.form("/order/pay-amount-due", {})).status).toBe(401);
    });
  });
});

describe("a purchase order's file name as shown", () => {
  it("keeps the last 200 characters whole, never half an emoji, and replaces separators and broken text", () => {
    const name = `${"🌮".repeat(150)}${"a".repeat(60)}.png`;
    const shown = displayName(name);
    expect([...shown]).toHaveLength(200);
    expect(shown.isWellFormed()).toBe(true);
    expect(displayName("a/b\\c\ud800d.txt")).toBe("a_b_c_d.txt");
  });
});
