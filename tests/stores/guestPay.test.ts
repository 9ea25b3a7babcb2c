import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { getCountryList } from "../../src/api/countries.ts";
import { getPublicOrder, payOrderAsGuest, type OrderDetails } from "../../src/api/orders.ts";
import {
  getPublicQuote,
  orderQuoteAsGuest,
  QuoteDetailSchema,
  type FullQuote,
  type QuoteDetails,
} from "../../src/api/quotes.ts";
import type { Address } from "../../src/api/records.ts";
import { getShipmentList, type Shipment } from "../../src/api/shipments.ts";
import { PAYMENT_IN_PROGRESS } from "../../src/api/payments.ts";
import { CARD_MESSAGES, PAYMENT_NETWORK_ERROR, type CardInput } from "../../src/domain/card.ts";
import { INVALID_EMAIL } from "../../src/domain/auth.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { $countries, countryName } from "../../src/stores/countries.ts";
import {
  $guestPay,
  $paymentDone,
  $payForm,
  dismissLoadError,
  type GuestRecord,
  NOT_PAYABLE,
  notPayableReason,
  openGuestPay,
  submitPayment,
} from "../../src/stores/guestPay.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";

const REF = "ORD-5003-abc_DEF";
const TOKEN = "9f86d081884c7d659a2feaa0c55ad015";
const NOW = 1_790_000_000;
const CARD: CardInput = {
  cardNumber: "4242 4242 4242 4242",
  cardExpirationMonth: "01",
  cardExpirationYear: 2031,
  cardCvv: "123",
  email: "guest@example.com",
};
const SENT_CARD = { ...CARD, cardExpirationYear: "31" };
const DECLINED = { status: 402, errors: [{ field: "cardNumber", message: CARD_MESSAGES.declined }] };

const address = (id: number): Address => ({
  id,
  companyName: "Acme Labs",
  contactName: "Dana Whitfield",
  attention: null,
  line1: "1 Main St",
  line2: null,
  city: "Boston",
  state: "MA",
  zipCode: "02110",
  country: { id: 1, name: "US", code: "US" },
  phoneNumber: null,
});

const ORDER: OrderDetails = {
  id: 5003,
  orderNumber: "ORD-5003",
  productFamily: "Environmental Monitoring",
  createdAt: NOW - 40 * 86_400,
  shippingTimestamp: NOW - 9 * 86_400,
  shippingStatus: "Shipped",
  statusType: "partial",
  poNumber: "PO-88177",
  paymentStatus: "Part Paid",
  billingStatus: "Open",
  needsPayment: true,
  payable: true,
  paymentType: "Purchase Order",
  currency: 1,
  crmOrgId: 7000,
  shippingAddress: address(1),
  billingAddress: null,
  orderLineItemList: [
    {
      productNumber: "RA12-BS",
      description: "Base station",
      quantity: 1,
      discount: null,
      currency: 1,
      ...amountsOf(1, { listPrice: 50_000, lineTotal: 50_000 }),
    },
  ],
  numItems: 1,
  ...amountsOf(1, {
    subtotal: 50_000,
    tax: 3_125,
    shippingAmount: 2_995,
    grandTotal: 56_120,
    paid: 28_060,
    paymentBalanceDue: 28_060,
  }),
  dueDate: NOW + 21 * 86_400,
  shipMethod: "Ground",
  shipCarrier: "UPS",
  referrerCode: null,
  payments: [],
  shipmentList: [],
  trackingNumbers: [],
  timeline: [],
  memberPath: null,
  needsShipping: true,
};

const QUOTE: FullQuote = {
  id: 1001,
  quoteNumber: "QUO-1001",
  productFamily: "Environmental Monitoring",
  status: "Open",
  statusType: "Open",
  isOpen: true,
  createdAt: NOW - 5 * 86_400,
  expiresAt: NOW + 25 * 86_400,
  payable: true,
  guestToken: TOKEN,
  currency: 1,
  crmOrgId: 7000,
  needsShipping: true,
  contactName: "Dana Whitfield",
  shippingAddress: address(1),
  billingAddress: address(2),
  productSpecialist: { name: "Sam Rivera", phone: "800-555-0199", phoneExtension: "214" },
  shippingCarrier: "UPS",
  shippingMethod: "2nd Day Air",
  shippingDetailsString: "UPS 2nd Day Air",
  quoteLineItemList: [],
  numItems: 0,
  ...amountsOf(1, { subtotal: 100_000, tax: 14_523, shippingCost: 2_995, grandTotal: 117_518 }),
  memberPath: null,
};

/** The same quote opened by its number: the token-only fields withheld. */
const SUMMARY = {
  ...QUOTE,
  ...Object.fromEntries(Object.keys(QuoteDetailSchema.shape).map((k) => [k, null])),
  guestToken: null,
  payable: false,
} as QuoteDetails;

const PAID = {
  paymentId: 77,
  currency: 1,
  ...amountsOf(1, { amount: 28_060, paymentBalanceDue: 0 }),
  cardBrand: "Visa",
  cardLast4: "4242",
  billingStatus: "Paid" as const,
  receiptPath: `/order/public/${REF}/receipt/77`,
};

let api: ReturnType<typeof fakeApi>;
let visits: string[];
beforeEach(() => {
  api = fakeApi();
  api.on(getCountryList, {
    countryList: [{ id: 1, crmId: 1, code: "US", name: "United States", abbreviation: "USA" }],
  });
  $countries.set([]);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigation(null);
});

const SHIPMENT: Shipment = {
  id: 1,
  shippingDate: NOW - 9 * 86_400,
  shippedAt: NOW - 9 * 86_400,
  carrier: "UPS",
  shipMethod: "Ground",
  trackingNumber: "1Z999AA1500300035021",
  shipmentItems: [{ productNumber: "RA12-BS", description: "Base station", quantity: 1 }],
  address: { city: "Boston", state: "MA", country: "United States" },
  distributionOrigin: { shippingAddress: { city: "Louisville", state: "KY", countryCode: "US" } },
  isDelivered: true,
};

async function openOrder(order: OrderDetails = ORDER) {
  visits = fakeNavigation(`/p/order/pay-as-guest/${REF}`);
  api.on(getPublicOrder, { orderDetails: order });
  api.on(getShipmentList, { shipmentList: [SHIPMENT] });
  await openGuestPay("order");
}

async function openQuote(quote: QuoteDetails = QUOTE) {
  visits = fakeNavigation(`/p/quote/pay-as-guest/${TOKEN}`);
  api.on(getPublicQuote, { quoteDetails: quote });
  await openGuestPay("quote");
}

const keyOfCall = (n: number) => api.calls(payOrderAsGuest)[n]?.fields["idempotencyKey"];

describe("loading a pay-as-guest page", () => {
  test("loads the order named by its address, its shipments and the country list", async () => {
    await openOrder();
    expect(api.calls(getPublicOrder)[0]?.url).toBe(`https://api.test/api/v1/orders/public/${REF}`);
    expect(api.calls(getShipmentList)[0]?.url).toBe(`https://api.test/api/v1/shipments/shipment-list/${REF}`);
    expect($guestPay.get()).toEqual({
      step: "ready",
      record: { kind: "order", ref: REF, order: ORDER, shipments: [SHIPMENT] },
    });
    await vi.waitFor(() => expect($countries.get()).toHaveLength(1));
    expect($payForm.get().key).toMatch(/^[0-9a-f]{32}$/);
  });

  test("loads the full quote of a token link and pays with the token", async () => {
    await openQuote();
    const state = $guestPay.get();
    expect(state.step === "ready" && state.record).toMatchObject({
      kind: "quote",
      token: TOKEN,
      orderPath: null,
    });
  });

  test("shows the banner for a quote number, which opens only the summary", async () => {
    await openQuote(SUMMARY);
    expect($guestPay.get()).toEqual({ step: "failed", message: "Unexpected Error retrieving quote." });
  });

  test("shows 'Unexpected Error retrieving order.' when the order does not load, until dismissed", async () => {
    visits = fakeNavigation(`/p/order/pay-as-guest/ORD-1-wrong`);
    await openGuestPay("order");
    expect($guestPay.get()).toEqual({ step: "failed", message: "Unexpected Error retrieving order." });
    dismissLoadError();
    expect($guestPay.get()).toEqual({ step: "failed", message: null });
  });

  test("still shows the order when the country list or the shipment list fails", async () => {
    const failure = { status: 500, errors: [{ field: null, message: "Unexpected error." }] };
    api.on(getCountryList, failure);
    visits = fakeNavigation(`/p/order/pay-as-guest/${REF}`);
    api.on(getPublicOrder, { orderDetails: ORDER });
    api.on(getShipmentList, failure);
    await openGuestPay("order");
    expect($guestPay.get()).toMatchObject({ step: "ready", record: { order: ORDER, shipments: null } });
    expect($countries.get()).toEqual([]);
  });
});

describe("paying an order as a guest", () => {
  test("sends the card with a two-digit year, the balance shown and the attempt's key", async () => {
    await openOrder();
    const key = $payForm.get().key;
    api.on(payOrderAsGuest, PAID);
    await submitPayment(CARD);
    expect(api.calls(payOrderAsGuest)).toEqual([
      {
        method: "POST",
        url: `https://web.test/order/public/${REF}/pay-amount-due`,
        as: "form",
        fields: { ...SENT_CARD, balanceDue: "28060", paymentAmount: "28060", idempotencyKey: key },
      },
    ]);
  });

  test("shows Payment Complete and the order as Paid with nothing due afterwards", async () => {
    await openOrder();
    api.on(payOrderAsGuest, PAID);
    await submitPayment(CARD);
    expect($paymentDone.get()).toEqual({
      amount: 28_060,
      currency: 1,
      cardBrand: "Visa",
      cardLast4: "4242",
      receiptHref: PAID.receiptPath,
      email: "guest@example.com",
    });
    const state = $guestPay.get();
    const order = state.step === "ready" && state.record.kind === "order" ? state.record.order : null;
    expect(order).toMatchObject({
      billingStatus: "Paid",
      paymentBalanceDue: 0,
      paymentBalanceDueCents: 0,
      paymentBalanceDueDisplay: "$0.00",
      payable: false,
      paid: 561.2,
      paidCents: 56_120,
      paidDisplay: "$561.20",
    });
    expect(order?.payments).toMatchObject([
      {
        id: 77,
        amount: 280.6,
        amountCents: 28_060,
        amountDisplay: "$280.60",
        cardBrand: "Visa",
        cardLast4: "4242",
      },
    ]);
    expect(state.step === "ready" && notPayableReason(state.record, NOW)).toBe(NOT_PAYABLE.noBalance);
  });

  test("puts a decline beside the card number and sends the next try with a new key", async () => {
    await openOrder();
    api.on(payOrderAsGuest, DECLINED);
    await submitPayment(CARD);
    expect($payForm.get()).toMatchObject({ busy: false, errors: DECLINED.errors });
    await submitPayment(CARD);
    expect(keyOfCall(1)).not.toBe(keyOfCall(0));
    expect($paymentDone.get()).toBeNull();
  });

  test("says 'Unexpected error processing payment.' without an answer and retries with the same key", async () => {
    await openOrder();
    api.on(payOrderAsGuest, () => {
      throw new TypeError("Failed to fetch");
    });
    await submitPayment(CARD);
    expect($payForm.get().errors).toEqual([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
    api.on(payOrderAsGuest, PAID);
    await submitPayment(CARD);
    expect(keyOfCall(1)).toBe(keyOfCall(0));
    expect($paymentDone.get()).not.toBeNull();
  });

  test("shows a server message that names no field and starts a new attempt", async () => {
    const changed = "The amount due has changed. Reload the page to see the new amount.";
    await openOrder();
    api.on(payOrderAsGuest, { status: 409, errors: [{ field: null, message: changed }] });
    await submitPayment(CARD);
    expect($payForm.get().errors).toEqual([{ field: null, message: changed }]);
    await submitPayment(CARD);
    expect(keyOfCall(1)).not.toBe(keyOfCall(0));
  });

  test("says a past expiry or a missing number at once, without a request", async () => {
    await openOrder();
    await submitPayment({ ...CARD, cardNumber: " ", cardExpirationMonth: "01", cardExpirationYear: 2020 });
    expect(api.calls(payOrderAsGuest)).toEqual([]);
    expect($payForm.get().errors).toEqual([
      { field: "cardNumber", message: CARD_MESSAGES.number },
      { field: "cardExpirationYear", message: CARD_MESSAGES.expired },
    ]);
  });

  test("says every mistake of the form at once: checksum, an earlier month of this year, code and address", async () => {
    await openOrder();
    const thisYear = new Date().getUTCFullYear();
    const month = new Date().getUTCMonth() + 1;
    await submitPayment({
      cardNumber: "1234 5678 9012 3456",
      // January of this year is past from February on; in January the month is still good.
      cardExpirationMonth: month > 1 ? "01" : "12",
      cardExpirationYear: month > 1 ? thisYear : thisYear - 1,
      cardCvv: "",
      email: "not-an-address",
    });
    expect(api.calls(payOrderAsGuest)).toEqual([]);
    expect($payForm.get().errors).toEqual([
      { field: "cardNumber", message: CARD_MESSAGES.number },
      { field: month > 1 ? "cardExpirationMonth" : "cardExpirationYear", message: CARD_MESSAGES.expired },
      { field: "cardCvv", message: CARD_MESSAGES.cvv },
      { field: "email", message: INVALID_EMAIL },
    ]);
  });

  test("keeps the key while the server says the same attempt is still being processed", async () => {
    await openOrder();
    api.on(payOrderAsGuest, { status: 409, errors: [{ field: null, message: PAYMENT_IN_PROGRESS }] });
    await submitPayment(CARD);
    expect($payForm.get().errors).toEqual([{ field: null, message: PAYMENT_IN_PROGRESS }]);
    api.on(payOrderAsGuest, PAID);
    await submitPayment(CARD);
    expect(keyOfCall(1)).toBe(keyOfCall(0));
    expect($paymentDone.get()).not.toBeNull();
  });

  test("charges once for a double click: the second press while busy sends nothing", async () => {
    await openOrder();
    const answer = later<typeof PAID>();
    api.on(payOrderAsGuest, () => answer.promise);
    const first = submitPayment(CARD);
    await vi.waitFor(() => expect($payForm.get().busy).toBe(true));
    await submitPayment(CARD);
    answer.resolve(PAID);
    await first;
    expect(api.calls(payOrderAsGuest)).toHaveLength(1);
  });
});

describe("ordering a quote as a guest", () => {
  test("sends the card and the grand total shown with the token, then opens the new order", async () => {
    await openQuote();
    api.on(orderQuoteAsGuest, { orderId: 5013, orderPath: "/p/order/ORD-5013-xyz" });
    await submitPayment(CARD);
    expect(api.calls(orderQuoteAsGuest)[0]).toMatchObject({
      url: `https://web.test/quote/public/${TOKEN}/order`,
      fields: { ...SENT_CARD, grandTotal: "117518", idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    expect(visits).toEqual(["/p/order/ORD-5013-xyz"]);
  });
});

describe("why a record takes no payment", () => {
  const order = (o: Partial<OrderDetails>): GuestRecord => ({
    kind: "order",
    ref: REF,
    order: { ...ORDER, ...o },
    shipments: [],
  });
  const quote = (q: Partial<FullQuote>): GuestRecord => ({
    kind: "quote",
    quote: { ...QUOTE, ...q },
    token: TOKEN,
    orderPath: null,
  });
  test.each([
    ["a payable order", order({}), null],
    [
      "a paid order",
      order({ payable: false, ...amountsOf(1, { paymentBalanceDue: 0 }) }),
      NOT_PAYABLE.noBalance,
    ],
    [
      "a cancelled order that owes money",
      order({ payable: false, billingStatus: "Cancelled" }),
      NOT_PAYABLE.order,
    ],
    ["an open quote", quote({}), null],
    ["a closed quote", quote({ payable: false, isOpen: false, status: "Closed" }), NOT_PAYABLE.quoteClosed],
    ["an expired quote", quote({ payable: false, expiresAt: NOW - 1 }), NOT_PAYABLE.quoteExpired],
    ["an open quote not payable otherwise", quote({ payable: false }), NOT_PAYABLE.quote],
  ])("%s: %s", (_, record, reason) => {
    expect(notPayableReason(record, NOW)).toBe(reason);
  });
});

describe("country names on address cards", () => {
  const list = [{ id: 4, crmId: 4, code: "CA", name: "Canada", abbreviation: "CAN" }];
  test("names the country by its id from the list, else by the address's own name", () => {
    expect(countryName({ country: { id: 4, name: "CA", code: "CA" } }, list)).toBe("Canada");
    expect(countryName({ country: { id: 9, name: "Mexico", code: "MX" } }, list)).toBe("Mexico");
    expect(countryName({ country: null }, list)).toBe("");
  });
});
