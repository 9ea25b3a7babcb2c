import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { getAccountOrder, type AccountOrder, type AccountQuote } from "../../src/api/accountOrders.ts";
import { getCountryList } from "../../src/api/countries.ts";
import {
  getQuoteTax,
  getShippingRates,
  placeQuoteOrder,
  type ShippingOption,
} from "../../src/api/quoteOrder.ts";
import type { Address } from "../../src/api/records.ts";
import { PAYMENT_NETWORK_ERROR, type CardInput } from "../../src/domain/card.ts";
import { Role } from "../../src/domain/roles.ts";
import { $countries } from "../../src/stores/countries.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import {
  $addressDialog,
  $canSaveAddress,
  chooseOption,
  confirmShipping,
  editAddress,
  openAddressDialog,
  RATES_FAILED,
  refreshRates,
  saveAddress,
} from "../../src/stores/quoteAddress.ts";
import {
  $orderForm,
  $orderTotals,
  $placedOrder,
  $quoteOrder,
  $quotePaymentDone,
  $readyToPay,
  openQuoteOrder,
  orderOffer,
  placedMessage,
  quoteStatusText,
  shippingLabel,
} from "../../src/stores/quoteOrder.ts";
import { choosePoFile, placeOrder, setOrderField } from "../../src/stores/quotePlace.ts";
import { $router } from "../../src/stores/router.ts";
import { $session } from "../../src/stores/session.ts";
import { fakeApi, fakeNavigation, later } from "./fakeApi.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { session } from "./sessions.ts";
import { accountOrder } from "./accountOrderFixture.ts";

const BOSTON: Address = {
  id: 7,
  companyName: "Acme Labs",
  contactName: "Dana Whitfield",
  attention: null,
  line1: "100 Research Park Dr",
  line2: null,
  city: "Boston",
  state: "MA",
  zipCode: "02110",
  country: { id: 1, name: "United States", code: "US" },
  phoneNumber: null,
};

const quote = (over: Partial<AccountQuote> = {}, ships = true): AccountQuote => ({
  id: 1001,
  orderId: null,
  quoteNumber: "QUO-1001",
  productFamily: "Environmental Monitoring",
  status: "Open",
  statusType: "Open",
  isOpen: true,
  createdAt: 1_700_000_000,
  expiresAt: null,
  payable: true,
  guestToken: null,
  memberPath: null,
  currency: 1,
  crmOrgId: 7000,
  needsShipping: ships,
  contactName: "Dana",
  shippingAddress: ships ? BOSTON : null,
  billingAddress: { ...BOSTON, id: 8 },
  productSpecialist: { name: "Sam", phone: null, phoneExtension: null },
  shippingCarrier: "UPS",
  shippingMethod: "2nd Day Air",
  shippingDetailsString: "UPS 2nd Day Air",
  quoteLineItemList: [],
  numItems: 0,
  ...amountsOf(1, { subtotal: 100_000, tax: 14523, shippingCost: 2995, grandTotal: 117_518 }),
  ...over,
});

const option = (serviceCode: string, price: number, over: Partial<ShippingOption> = {}): ShippingOption => ({
  serviceCode,
  name: `UPS ${serviceCode}`,
  displayPrice: `$${(price / 100).toFixed(2)}`,
  price: price / 100,
  priceCents: price,
  serviceName: serviceCode === "UPS-2DA" ? "2nd Day Air" : "Ground",
  carrierName: "UPS",
  isDisabled: false,
  ...over,
});
const RATES = [
  option("USPS-PRI", 2045, { isDisabled: true }),
  option("UPS-GND", 3245),
  option("UPS-2DA", 5795),
];

const CARD: CardInput = {
  cardNumber: "4242 4242 4242 4242",
  cardExpirationMonth: "12",
  cardExpirationYear: 2031,
  cardCvv: "123",
  email: "",
};

function signedInAs(roleId: number) {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      activeSubscription: { ...info.activeSubscription, role: { id: roleId, name: "", displayName: "" } },
    },
  });
}

/** The multipart bodies sent to POST /quote/order (the fake API reads form-encoded bodies only). */
function captureOrders() {
  const bodies: FormData[] = [];
  const inner = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: Request | string | URL, init?: RequestInit) => {
    if (input instanceof Request && input.url.endsWith("/quote/order")) {
      const type = input.headers.get("content-type") ?? "";
      if (type.startsWith("multipart/form-data")) bodies.push(await input.clone().formData());
    }
    return inner(input, init);
  });
  return bodies;
}

/** The order a card payment placed, as GET /api/v1/orders/5100 answers it. */
const PLACED_ORDER: AccountOrder = accountOrder({
  id: 5100,
  paymentStatus: "Paid",
  billingStatus: "Paid",
  needsPayment: false,
  payable: false,
  ...amountsOf(1, { subtotal: 100_000, tax: 6600, shippingAmount: 5795, grandTotal: 117_518, paid: 117_518 }),
  payments: [
    {
      id: 31,
      createdAt: 1_700_000_100,
      ...amountsOf(1, { amount: 117_518 }),
      method: "Online - CC",
      cardBrand: "Visa",
      cardLast4: "4242",
    },
  ],
  publicPath: "/p/order/ORD-5100-v7",
});

let api: ReturnType<typeof fakeApi>;
let visits: string[];
beforeEach(() => {
  api = fakeApi();
  visits = fakeNavigation("/s/quotes/details/QUO-1001");
  api.on(getCountryList, {
    countryList: [
      { id: 1, crmId: 1001, code: "US", name: "United States", abbreviation: "USA" },
      { id: 4, crmId: 1004, code: "CA", name: "Canada", abbreviation: "CAN" },
    ],
  });
  $countries.set([]);
  signedInAs(Role.ADMINISTRATOR);
});
afterEach(() => {
  cleanStores(
    $quoteOrder,
    $orderForm,
    $addressDialog,
    $orderTotals,
    $readyToPay,
    $canSaveAddress,
    $placedOrder,
    $quotePaymentDone,
  );
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("what the quote page offers", () => {
  test("offers the order on an open quote to a buyer, nothing on a closed one or to a Viewer", () => {
    expect(orderOffer(quote(), true)).toEqual({ kind: "order" });
    expect(orderOffer(quote({ status: "Closed", isOpen: false, payable: false }), true)).toEqual({
      kind: "none",
    });
    expect(orderOffer(quote(), false)).toEqual({ kind: "none" });
    expect(orderOffer(quote({ payable: false, expiresAt: 1 }), true)).toEqual({
      kind: "reason",
      message: "This quote has expired.",
    });
  });
});

describe("the quote's status", () => {
  const day = (d: number) => Date.UTC(2026, 10, d, 12) / 1000;

  test("reads the spec's 'Expires at {date}' for a coming or a past date, and 'Closed' when closed or ordered here", () => {
    expect(quoteStatusText(quote({ expiresAt: day(30) }), "UTC", false)).toBe("Expires at Nov 30, 2026");
    expect(quoteStatusText(quote({ expiresAt: day(8) }), "UTC", false)).toBe("Expires at Nov 08, 2026");
    expect(quoteStatusText(quote({ expiresAt: day(30) }), "UTC", true)).toBe("Closed");
    expect(quoteStatusText(quote({ status: "Closed", isOpen: false, expiresAt: day(8) }), "UTC", false)).toBe(
      "Closed",
    );
    expect(quoteStatusText(quote({ expiresAt: null }), "UTC", false)).toBe("Closed");
  });
});

describe("the shipping address dialog", () => {
  test("asks for the address's options at once and enables Save only after another option is chosen", async () => {
    api.on(getShippingRates, RATES);
    openQuoteOrder(quote());
    openAddressDialog("shipping");
    await vi.waitFor(() => expect($addressDialog.get().options).toHaveLength(3));
    expect(api.calls(getShippingRates)[0]!.fields).toMatchObject({
      quoteId: "1001",
      line1: "100 Research Park Dr",
      countryCode: "US",
      zip: "02110",
    });
    expect($canSaveAddress.get()).toBe(false);
    chooseOption("UPS-GND");
    expect($canSaveAddress.get()).toBe(true);
  });

  test("clears the options when the address changes, and needs them asked for again", async () => {
    api.on(getShippingRates, RATES);
    openQuoteOrder(quote());
    openAddressDialog("shipping");
    await vi.waitFor(() => expect($addressDialog.get().options).not.toBeNull());
    chooseOption("UPS-GND");
    editAddress({ line1: "1 New Dock Rd" });
    expect($addressDialog.get()).toMatchObject({ options: null, chosen: null });
    expect($canSaveAddress.get()).toBe(false);
    await refreshRates();
    chooseOption("UPS-GND");
    expect($canSaveAddress.get()).toBe(true);
  });

  test("clears state and city when the country changes", () => {
    openQuoteOrder(quote({}, false));
    openAddressDialog("billing");
    editAddress({ countryId: 4 });
    expect($addressDialog.get().draft).toMatchObject({ countryId: 4, state: "", city: "" });
    expect($canSaveAddress.get()).toBe(true);
  });

  test("shows the server's zip and line1 errors at their fields, and the spec's message when the call fails", async () => {
    api.on(getShippingRates, {
      status: 400,
      errors: [
        { field: "line1", message: "Enter the street address." },
        { field: "zip", message: "Enter a valid ZIP code." },
      ],
    });
    openQuoteOrder(quote());
    openAddressDialog("shipping");
    await vi.waitFor(() => expect($addressDialog.get().rates).toBe("failed"));
    expect($addressDialog.get().errors.map((e) => e.field)).toEqual(["line1", "zip"]);
    editAddress({ zipCode: "02111" });
    expect($addressDialog.get().errors.map((e) => e.field)).toEqual(["line1"]);
    api.on(getShippingRates, { status: 500, errors: [{ field: null, message: "Internal error." }] });
    await refreshRates();
    expect($addressDialog.get().errors).toEqual([{ field: null, message: RATES_FAILED }]);
  });

  test("saving the address and option asks for the tax, and the totals follow", async () => {
    api.on(getShippingRates, RATES);
    api.on(getQuoteTax, amountsOf(1, { tax: 6453 }));
    openQuoteOrder(quote());
    openAddressDialog("shipping");
    editAddress({ line1: "1 New Dock Rd" });
    await refreshRates();
    chooseOption("UPS-GND");
    await saveAddress();
    expect($addressDialog.get().kind).toBeNull();
    expect(api.calls(getQuoteTax)[0]!.fields).toMatchObject({
      shippingMethod: "Ground",
      shippingAmount: "3245",
      line1: "1 New Dock Rd",
      region: "MA",
      countryCode: "US",
      postalCode: "02110",
    });
    expect($orderTotals.get()).toEqual({
      subtotal: 100_000,
      tax: 6453,
      shipping: 3245,
      shippingName: "UPS UPS-GND",
      grandTotal: 109_698,
    });
    expect($readyToPay.get()).toBe(true);
    expect($quoteOrder.get().shippingNote).toBe(
      "Shipping changed from $29.95 to $32.45 (UPS UPS-GND) for the new address.",
    );
  });

  test("says nothing of the shipping when a new address keeps its price", async () => {
    api.on(getShippingRates, [option("UPS-2DA", 2995)]);
    api.on(getQuoteTax, amountsOf(1, { tax: 6453 }));
    openQuoteOrder(quote());
    openAddressDialog("shipping");
    editAddress({ line1: "1 New Dock Rd" });
    await refreshRates();
    chooseOption("UPS-2DA");
    await saveAddress();
    expect($quoteOrder.get().shippingNote).toBeNull();
  });

  test("names the shipping method beside the amount: the chosen option, else the quote's own", async () => {
    openQuoteOrder(quote());
    expect(shippingLabel($orderTotals.get()!.shippingName)).toBe("Shipping (UPS 2nd Day Air)");
    expect(shippingLabel(null)).toBe("Shipping");
  });

  test("Confirm Address picks the quote's own carrier and method when still offered, then the tax", async () => {
    api.on(getShippingRates, RATES);
    api.on(getQuoteTax, amountsOf(1, { tax: 6600 }));
    openQuoteOrder(quote());
    expect($readyToPay.get()).toBe(false);
    await confirmShipping();
    expect($quoteOrder.get().option?.serviceCode).toBe("UPS-2DA");
    expect($orderTotals.get()).toMatchObject({ shipping: 5795, tax: 6600, shippingName: "UPS UPS-2DA" });
  });

  test("Confirm Address says so when today's rate for the quote's method is not the quoted price", async () => {
    api.on(getShippingRates, RATES);
    api.on(getQuoteTax, amountsOf(1, { tax: 6600 }));
    openQuoteOrder(quote());
    await confirmShipping();
    expect($quoteOrder.get().shippingNote).toBe(
      "Shipping changed from $29.95 to $57.95 (UPS UPS-2DA) at today's rate for this address.",
    );
  });
});

describe("placing the order", () => {
  async function readyQuote() {
    api.on(getShippingRates, RATES);
    api.on(getQuoteTax, amountsOf(1, { tax: 6600 }));
    openQuoteOrder(quote());
    await confirmShipping();
  }

  test("by card: sends the shipping, tax and addresses, then confirms the order and opens Payment Complete", async () => {
    await readyQuote();
    api.on(placeQuoteOrder, { orderId: 5100 });
    api.on(getAccountOrder, { orderDetails: PLACED_ORDER });
    setOrderField("contactPhone", "617-555-0142");
    await placeOrder(CARD);
    const sent = api.calls(placeQuoteOrder)[0]!.fields;
    expect(sent).toMatchObject({
      quoteId: "1001",
      paymentMethod: "Online - CC",
      contactPhone: "617-555-0142",
      cardExpirationYear: "31",
      shippingCarrier: "UPS",
      shippingMethod: "2nd Day Air",
      shippingPrice: "5795",
      tax: "6600",
      shippingAddressAddressLine1: "100 Research Park Dr",
      shippingAddressCountryId: "1",
      billingAddressCity: "Boston",
    });
    // The app moves to the order's page itself (no page load).
    expect(visits).toEqual([]);
    expect($router.get()).toMatchObject({ route: "orderDetails", params: { id: "ORD-5100" } });
    expect($placedOrder.get()).toMatchObject({
      quoteId: 1001,
      orderId: 5100,
      orderNumber: "ORD-5100",
      orderPath: "/s/order/details/ORD-5100",
    });
    expect(placedMessage($placedOrder.get()!)).toBe(
      "Thank you: your order ORD-5100 is placed and paid by card.",
    );
    await vi.waitFor(() => expect($quotePaymentDone.get()).not.toBeNull());
    expect($quotePaymentDone.get()).toEqual({
      amount: 117_518,
      currency: 1,
      cardBrand: "Visa",
      cardLast4: "4242",
      receiptHref: "/order/public/ORD-5100-v7/receipt/31",
      email: session().sessionInformation.email,
    });
  });

  test("by card: still confirms the order when its payment cannot be read back (no Payment Complete)", async () => {
    await readyQuote();
    api.on(placeQuoteOrder, { orderId: 5100 });
    api.on(getAccountOrder, { status: 500, errors: [{ field: null, message: "Internal error." }] });
    await placeOrder(CARD);
    expect($placedOrder.get()?.orderNumber).toBe("ORD-5100");
    await vi.waitFor(() => expect(api.calls(getAccountOrder)).toHaveLength(1));
    expect($quotePaymentDone.get()).toBeNull();
    expect($orderForm.get().errors).toEqual([]);
  });

  test("checks the card's expiry before sending: the default month of this year is refused at once", async () => {
    await readyQuote();
    api.on(placeQuoteOrder, { orderId: 5100 });
    await placeOrder({ ...CARD, cardExpirationMonth: "01", cardExpirationYear: 2000 });
    expect(api.calls(placeQuoteOrder)).toHaveLength(0);
    expect($orderForm.get().errors.map((e) => e.field)).toEqual(["cardExpirationYear"]);
  });

  test("on terms: sends the PO file as multipart", async () => {
    await readyQuote();
    const bodies = captureOrders();
    api.on(placeQuoteOrder, { orderId: 5101 });
    setOrderField("method", "Purchase Order");
    setOrderField("purchaseOrderNumber", "PO-77");
    choosePoFile(new File(["po,amount\n"], "po.csv", { type: "text/csv" }));
    await placeOrder(null);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.get("paymentMethod")).toBe("Purchase Order");
    expect(bodies[0]!.get("purchaseOrderNumber")).toBe("PO-77");
    expect((bodies[0]!.get("purchaseOrderFile") as File).name).toBe("po.csv");
    expect(visits).toEqual([]);
    expect($router.get()).toMatchObject({ route: "orderDetails", params: { id: "ORD-5101" } });
    expect(placedMessage($placedOrder.get()!)).toBe(
      "Thank you: your order ORD-5101 is placed on terms with purchase order PO-77; it will be invoiced.",
    );
    expect($quotePaymentDone.get()).toBeNull();
    expect(api.calls(getAccountOrder)).toHaveLength(0);
  });

  test("shows the server's field errors and makes a new key after an answer", async () => {
    await readyQuote();
    api.on(placeQuoteOrder, {
      status: 400,
      errors: [{ field: "cardCvv", message: "Enter the 3 or 4 digit security code." }],
    });
    const first = $orderForm.get().key;
    await placeOrder(CARD);
    expect($orderForm.get().errors).toEqual([
      { field: "cardCvv", message: "Enter the 3 or 4 digit security code." },
    ]);
    expect($orderForm.get().key).not.toBe(first);
  });

  test("keeps the key for a retry when no answer came", async () => {
    await readyQuote();
    const first = $orderForm.get().key;
    const inner = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: Request | string | URL, init?: RequestInit) => {
      if (input instanceof Request && input.url.endsWith("/quote/order"))
        throw new TypeError("Failed to fetch");
      return inner(input, init);
    });
    await placeOrder(CARD);
    expect($orderForm.get().errors).toEqual([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
    expect($orderForm.get().key).toBe(first);
  });

  test("sends nothing twice while an order is on its way", async () => {
    await readyQuote();
    const answer = later<{ orderId: number }>();
    api.on(placeQuoteOrder, () => answer.promise);
    const one = placeOrder(CARD);
    const two = placeOrder(CARD);
    answer.resolve({ orderId: 5102 });
    await Promise.all([one, two]);
    expect(api.calls(placeQuoteOrder)).toHaveLength(1);
  });
});
