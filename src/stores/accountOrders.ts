import { atom, computed, onMount } from "nanostores";
import {
  getAccountOrder,
  getAccountPaymentReceipt,
  getAccountQuote,
  getAccountShipmentList,
  listAccountOrders,
  listAccountQuotes,
  type AccountOrder,
  type AccountQuote,
  type OrderSummary,
  type QuoteSummary,
} from "../api/accountOrders.ts";
import { pathOf } from "../api/endpoint.ts";
import { getTrackingDetails, type Shipment } from "../api/shipments.ts";
import { parsePublicOrderRef } from "../domain/order.ts";
import { parseQuoteNumber } from "../domain/quote.ts";
import { $config } from "./config.ts";
import { call, RequestFailure } from "./http.ts";
import { $shipmentDialog } from "./shipments.ts";

/*
 * The signed-in quote and order pages (/s/orders/quotes/list, /s/orders/list,
 * /s/quotes/details/QUO-{n}, /s/order/details/{id}): the active subscription's lists with a
 * search by number, and one record with (for an order) its shipments and their tracking.
 */

/** Spec section 8: signed-in quote and order failures. */
export const RECORD_LOAD_FAILED = {
  order: "Unexpected Error retrieving order.",
  quote: "Unexpected Error retrieving quote.",
} as const;
/**
 * Said under the spec's banner when the server does not show the record to this person
 * (another subscription's, or none): someone who registered from its link without an
 * invitation lands here (docs/decisions.md, "Who may join a subscription").
 */
export const NOT_IN_ACCOUNT = {
  order:
    "This order is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
  quote:
    "This quote is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
} as const;
/** A failed record load: the spec's banner, and the advice when the record is not this person's. */
const recordFailure = (e: unknown, kind: "order" | "quote") => ({
  status: "failed" as const,
  message: RECORD_LOAD_FAILED[kind],
  ...(e instanceof RequestFailure && e.status === 404 && { hint: NOT_IN_ACCOUNT[kind] }),
});
export const LIST_LOAD_FAILED = {
  order: "Unexpected error loading orders. Please try again.",
  quote: "Unexpected error loading quotes. Please try again.",
} as const;

export type Listed<T> =
  | { status: "loading" }
  | { status: "ready"; list: T[]; truncated: boolean; limit: number }
  | { status: "failed"; message: string };

export const $orderList = atom<Listed<OrderSummary>>({ status: "loading" });
export const $quoteList = atom<Listed<QuoteSummary>>({ status: "loading" });
/** Each list's search by number, as typed. */
export const $orderSearch = atom("");
export const $quoteSearch = atom("");

/** Asks for the orders (again); each time the list starts showing. */
export async function loadOrderList() {
  try {
    const { orderList, truncated, limit } = await call(listAccountOrders);
    $orderList.set({ status: "ready", list: orderList, truncated, limit });
  } catch {
    $orderList.set({ status: "failed", message: LIST_LOAD_FAILED.order });
  }
}

/** Asks for the quotes (again); each time the list starts showing. */
export async function loadQuoteList() {
  try {
    const { quoteList, truncated, limit } = await call(listAccountQuotes);
    $quoteList.set({ status: "ready", list: quoteList, truncated, limit });
  } catch {
    $quoteList.set({ status: "failed", message: LIST_LOAD_FAILED.quote });
  }
}
onMount($orderList, () => void loadOrderList());
onMount($quoteList, () => void loadQuoteList());

/** Records whose number contains the search: any case, spaces at the ends ignored ("5003" finds ORD-5003). */
export function searchByNumber<T>(list: readonly T[], search: string, numberOf: (t: T) => string): T[] {
  const words = search.trim().toLowerCase();
  return list.filter((t) => numberOf(t).toLowerCase().includes(words));
}

export const $shownOrders = computed([$orderList, $orderSearch], (s, search) =>
  s.status === "ready" ? searchByNumber(s.list, search, (o) => o.orderNumber) : [],
);
export const $shownQuotes = computed([$quoteList, $quoteSearch], (s, search) =>
  s.status === "ready" ? searchByNumber(s.list, search, (q) => q.quoteNumber) : [],
);

/** The order id an /s/order/details address names: {id}, ORD-{id} or ORD-{id}-{validationId}. */
export function orderIdOf(param: string): number | null {
  const text = param.trim();
  const bare = /^(?:ORD-)?(\d{1,10})$/i.exec(text);
  const id = bare ? Number(bare[1]) : (parsePublicOrderRef(text)?.id ?? null);
  return id !== null && id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** The quote id of /s/quotes/details/QUO-{n}. */
export function quoteIdOf(param: string): number | null {
  const id = parseQuoteNumber(param);
  return id !== null && id >= 1 && id <= 2_147_483_647 ? id : null;
}

export type RecordState<T> =
  | { status: "loading" }
  | { status: "ready"; record: T }
  | { status: "failed"; message: string | null; hint?: string };

/** The order page's order and its shipments (null when their list failed: the page's banner). */
export const $accountOrder = atom<RecordState<{ order: AccountOrder; shipments: Shipment[] | null }>>({
  status: "loading",
});
export const $accountQuote = atom<RecordState<AccountQuote>>({ status: "loading" });

let askedOrder = 0;
/** Loads the order an address names; the last address asked for wins. */
export async function loadAccountOrder(param: string) {
  const ask = ++askedOrder;
  $accountOrder.set({ status: "loading" });
  const id = orderIdOf(param);
  try {
    if (id === null) throw new Error("Not an order address.");
    const [{ orderDetails }, shipments] = await Promise.all([
      call(getAccountOrder, undefined, { orderId: id }),
      call(getAccountShipmentList, undefined, { orderId: id }).then(
        (d) => d.shipmentList,
        () => null,
      ),
    ]);
    if (ask === askedOrder)
      $accountOrder.set({ status: "ready", record: { order: orderDetails, shipments } });
  } catch (e) {
    if (ask === askedOrder) $accountOrder.set(recordFailure(e, "order"));
  }
}

let askedQuote = 0;
/** Loads the quote of /s/quotes/details/QUO-{n}; the last address asked for wins. */
export async function loadAccountQuote(param: string) {
  const ask = ++askedQuote;
  $accountQuote.set({ status: "loading" });
  const id = quoteIdOf(param);
  try {
    if (id === null) throw new Error("Not a quote address.");
    const { quoteDetails } = await call(getAccountQuote, undefined, { quoteId: id });
    if (ask === askedQuote) $accountQuote.set({ status: "ready", record: quoteDetails });
  } catch (e) {
    if (ask === askedQuote) $accountQuote.set(recordFailure(e, "quote"));
  }
}

/** Hides a record page's failure banner (the page keeps its Back to List). */
export function dismissRecordError(kind: "order" | "quote") {
  const store = kind === "order" ? $accountOrder : $accountQuote;
  const state = store.get();
  if (state.status === "failed") store.set({ ...state, message: null });
}

/**
 * Track: opens the Shipment Details dialog (islands/shipments) for a shipment this page has
 * already loaded, and asks the carrier for its activity.
 */
export async function trackShipment(shipment: Shipment) {
  const { trackingNumber } = shipment;
  $shipmentDialog.set({
    open: true,
    trackingNumber,
    shipment,
    tracking: null,
    loading: true,
    trackingFailed: false,
    listFailed: false,
  });
  let tracking = null;
  try {
    tracking = (await call(getTrackingDetails, undefined, { trackingNumber })).trackingDetails;
  } catch {
    // 'Shipment info currently unavailable.' shows in the dialog.
  }
  // A newer Track (another number) owns the dialog now.
  if ($shipmentDialog.get().trackingNumber !== trackingNumber) return;
  $shipmentDialog.set({
    ...$shipmentDialog.get(),
    loading: false,
    tracking,
    trackingFailed: tracking === null,
  });
}

/** A payment's receipt PDF on the signed-in order page (the API host, the session's cookie). */
export function accountReceiptLink(orderId: number, paymentId: number): string {
  return $config.get().apiBase + pathOf(getAccountPaymentReceipt, { orderId, paymentId });
}
