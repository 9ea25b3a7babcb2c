import { cleanStores } from "nanostores";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  getAccountOrder,
  getAccountQuote,
  getAccountShipmentList,
  listAccountOrders,
  listAccountQuotes,
  type AccountOrder,
  type AccountQuote,
  type OrderSummary,
  type QuoteSummary,
} from "../../src/api/accountOrders.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { getTrackingDetails, type Shipment } from "../../src/api/shipments.ts";
import {
  $accountOrder,
  $accountQuote,
  $orderList,
  $orderSearch,
  $quoteList,
  $shownOrders,
  $shownQuotes,
  $quoteSearch,
  dismissRecordError,
  LIST_LOAD_FAILED,
  loadAccountOrder,
  loadAccountQuote,
  loadOrderList,
  loadQuoteList,
  orderIdOf,
  quoteIdOf,
  RECORD_LOAD_FAILED,
  trackShipment,
} from "../../src/stores/accountOrders.ts";
import { $shipmentDialog, SHIPMENT_INFO_UNAVAILABLE } from "../../src/stores/shipments.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { accountOrder } from "./accountOrderFixture.ts";

const FAILED = { status: 500, errors: [{ field: null, message: "Unexpected error." }] };
const NOT_FOUND = { status: 404, errors: [{ field: null, message: "Not found." }] };

const orderRow = (id: number): OrderSummary => ({
  id,
  orderNumber: `ORD-${id}`,
  createdAt: 1_700_000_000 - id,
  shippingProgress: "received",
  billingStatus: "Open",
  poNumber: null,
  currency: 1,
  ...amountsOf(1, { grandTotal: 10_000, paymentBalanceDue: 10_000 }),
});
const quoteRow = (id: number): QuoteSummary => ({
  id,
  quoteNumber: `QUO-${id}`,
  status: "Open",
  isOpen: true,
  createdAt: 1_700_000_000,
  expiresAt: null,
  currency: 2,
  ...amountsOf(2, { grandTotal: 5_000 }),
});
const shipment: Shipment = {
  id: 7,
  shippingDate: 1_700_000_000,
  shippedAt: 1_700_000_000,
  carrier: "UPS",
  shipMethod: "Ground",
  trackingNumber: "1Z999",
  shipmentItems: [{ productNumber: "WS-TH", description: "Sensor", quantity: 2 }],
  address: { city: "Austin", state: "TX", country: "US" },
  distributionOrigin: { shippingAddress: { city: "Reno", state: "NV", countryCode: "US" } },
  isDelivered: false,
};
const order = (id: number): AccountOrder => accountOrder({ id });
const quote = (id: number): AccountQuote => ({
  id,
  orderId: null,
  quoteNumber: `QUO-${id}`,
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
  needsShipping: true,
  contactName: "Dana",
  shippingAddress: null,
  billingAddress: null,
  productSpecialist: { name: "Sam", phone: "555-0100", phoneExtension: "12" },
  shippingCarrier: null,
  shippingMethod: null,
  shippingDetailsString: "",
  quoteLineItemList: [],
  numItems: 0,
  ...amountsOf(1, { subtotal: 0, tax: 0, shippingCost: 0, grandTotal: 0 }),
});

let api: ReturnType<typeof fakeApi>;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/orders/list");
  $orderSearch.set("");
  $quoteSearch.set("");
});
afterEach(() => {
  cleanStores($orderList, $quoteList, $shownOrders, $shownQuotes);
  vi.unstubAllGlobals();
  setNavigation(null);
});

describe("the order and quote lists", () => {
  test("load the subscription's records and filter them by number as typed", async () => {
    api.on(listAccountOrders, { orderList: [orderRow(5002), orderRow(5003)], limit: 500, truncated: false });
    api.on(listAccountQuotes, { quoteList: [quoteRow(1001), quoteRow(1002)], limit: 500, truncated: true });
    await Promise.all([loadOrderList(), loadQuoteList()]);
    expect($shownOrders.get().map((o) => o.id)).toEqual([5002, 5003]);
    $orderSearch.set("  ord-5003 ");
    expect($shownOrders.get().map((o) => o.id)).toEqual([5003]);
    $quoteSearch.set("1002");
    expect($shownQuotes.get().map((q) => q.id)).toEqual([1002]);
    expect($quoteList.get()).toMatchObject({ status: "ready", truncated: true, limit: 500 });
  });

  test("say so when a list cannot load", async () => {
    api.on(listAccountOrders, FAILED);
    api.on(listAccountQuotes, FAILED);
    await Promise.all([loadOrderList(), loadQuoteList()]);
    expect($orderList.get()).toEqual({ status: "failed", message: LIST_LOAD_FAILED.order });
    expect($quoteList.get()).toEqual({ status: "failed", message: LIST_LOAD_FAILED.quote });
  });
});

describe("the addresses of the detail pages", () => {
  test.each([
    ["5003", 5003],
    ["ORD-5003", 5003],
    ["ORD-5003-abcDEF_12", 5003],
    ["5003-abc", 5003],
    ["abc", null],
    ["0", null],
    ["2147483648", null],
  ])("reads order %s as %s", (param, id) => expect(orderIdOf(param)).toBe(id));

  test.each([
    ["QUO-1001", 1001],
    ["quo-1001", 1001],
    ["1001", 1001],
    ["QUO-x", null],
    ["QUO-0", null],
  ])("reads quote %s as %s", (param, id) => expect(quoteIdOf(param)).toBe(id));
});

describe("an order page", () => {
  test("loads the order and its shipments by the id in the address", async () => {
    api.on(getAccountOrder, { orderDetails: order(5003) });
    api.on(getAccountShipmentList, { shipmentList: [shipment] });
    await loadAccountOrder("ORD-5003-abc");
    expect($accountOrder.get()).toEqual({
      status: "ready",
      record: { order: order(5003), shipments: [shipment] },
    });
    expect(api.calls(getAccountOrder)[0]!.url).toBe("https://api.test/api/v1/orders/5003");
  });

  test("shows the order with a null shipment list when only the shipments fail", async () => {
    api.on(getAccountOrder, { orderDetails: order(5003) });
    api.on(getAccountShipmentList, FAILED);
    await loadAccountOrder("5003");
    expect($accountOrder.get()).toMatchObject({ status: "ready", record: { shipments: null } });
  });

  test("shows the spec's banner for a missing or foreign order and a bad address, which can be dismissed", async () => {
    api.on(getAccountOrder, NOT_FOUND);
    api.on(getAccountShipmentList, NOT_FOUND);
    await loadAccountOrder("5012");
    expect($accountOrder.get()).toEqual({
      status: "failed",
      message: "Unexpected Error retrieving order.",
      hint: "This order is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
    });
    await loadAccountOrder("not-an-order");
    expect($accountOrder.get()).toEqual({ status: "failed", message: RECORD_LOAD_FAILED.order });
    expect(api.calls(getAccountOrder)).toHaveLength(1);
    dismissRecordError("order");
    expect($accountOrder.get()).toEqual({ status: "failed", message: null });
  });

  test("opens the Shipment Details dialog on Track and shows the carrier's activity", async () => {
    api.on(getTrackingDetails, { trackingDetails: { method: "Ground", activity: [] } });
    await trackShipment(shipment);
    expect($shipmentDialog.get()).toMatchObject({
      open: true,
      loading: false,
      shipment,
      trackingFailed: false,
      tracking: { method: "Ground", activity: [] },
    });
  });

  test("says the shipment info is unavailable when tracking fails", async () => {
    api.on(getTrackingDetails, FAILED);
    await trackShipment(shipment);
    expect($shipmentDialog.get()).toMatchObject({ open: true, loading: false, trackingFailed: true });
    expect(SHIPMENT_INFO_UNAVAILABLE).toBe("Shipment info currently unavailable.");
  });
});

describe("a quote page", () => {
  test("loads the quote of QUO-{n}", async () => {
    api.on(getAccountQuote, { quoteDetails: quote(1001) });
    await loadAccountQuote("QUO-1001");
    expect($accountQuote.get()).toEqual({ status: "ready", record: quote(1001) });
    expect(api.calls(getAccountQuote)[0]!.url).toBe("https://api.test/api/v1/quotes/1001");
  });

  test("asks a person shown no quote to ask their administrator, under the spec's banner; a server failure only shows the banner", async () => {
    api.on(getAccountQuote, NOT_FOUND);
    await loadAccountQuote("QUO-1005");
    expect($accountQuote.get()).toEqual({
      status: "failed",
      message: "Unexpected Error retrieving quote.",
      hint: "This quote is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
    });
    dismissRecordError("quote");
    expect($accountQuote.get()).toMatchObject({
      message: null,
      hint: expect.stringMatching(/administrator/),
    });
    api.on(getAccountQuote, FAILED);
    await loadAccountQuote("QUO-1005");
    expect($accountQuote.get()).toEqual({ status: "failed", message: RECORD_LOAD_FAILED.quote });
  });
});
