import { getPagePath } from "@nanostores/router";
import { atom } from "nanostores";
import { getAccountOrder, type AccountOrder } from "../api/accountOrders.ts";
import { pathOf } from "../api/endpoint.ts";
import { getPaymentReceipt } from "../api/orders.ts";
import { ORDER_PREFIX } from "../domain/order.ts";
import { loadConfig } from "./config.ts";
import type { PaymentDone } from "./guestPay.ts";
import { call } from "./http.ts";
import { $router } from "./router.ts";
import { $session } from "./session.ts";
import type { PaymentMethod } from "./quoteOrder.ts";

/*
 * A quote's order once placed from its page (src/stores/quoteOrder.ts places it): what the page
 * confirms and links to, and the Payment Complete of a card order.
 */

/** The order placed from this page: what the page confirms and links to (the quote is now closed). */
export interface PlacedOrder {
  quoteId: number;
  orderId: number;
  orderNumber: string;
  /** The signed-in order page, /s/order/details/ORD-{id}. */
  orderPath: string;
  method: PaymentMethod;
  purchaseOrderNumber: string;
}
export const $placedOrder = atom<PlacedOrder | null>(null);

/** The Payment Complete dialog of a card order; null while it is closed. */
export const $quotePaymentDone = atom<PaymentDone | null>(null);

export function closeQuotePaymentDone() {
  $quotePaymentDone.set(null);
}

/** What the page says once the order is placed (and takes the focus). */
export function placedMessage(placed: PlacedOrder): string {
  if (placed.method === "Online - CC")
    return `Thank you: your order ${placed.orderNumber} is placed and paid by card.`;
  const po = placed.purchaseOrderNumber ? ` with purchase order ${placed.purchaseOrderNumber}` : "";
  return `Thank you: your order ${placed.orderNumber} is placed on terms${po}; it will be invoiced.`;
}

/** The signed-in page of an order, /s/order/details/ORD-{id}. */
export const orderPagePath = (orderId: number) =>
  getPagePath($router, "orderDetails", { id: `${ORDER_PREFIX}${orderId}` });

/** The order a closed quote became, when this page placed it (the quote read does not name it yet). */
export function orderOfQuote(quoteId: number): PlacedOrder | null {
  const placed = $placedOrder.get();
  return placed?.quoteId === quoteId ? placed : null;
}

/** The receipt of the card payment that placed an order, from the order as the server now has it. */
export function receiptOf(order: AccountOrder, webBase: string, email: string): PaymentDone | null {
  const payment = order.payments.findLast((p) => p.method === "Online - CC");
  const ref = order.publicPath?.split("/").pop();
  if (!payment || !ref) return null;
  return {
    amount: payment.amountCents,
    currency: order.currency,
    cardBrand: payment.cardBrand ?? "",
    cardLast4: payment.cardLast4 ?? "",
    receiptHref: webBase + pathOf(getPaymentReceipt, { ref: decodeURIComponent(ref), paymentId: payment.id }),
    email,
  };
}

/**
 * Payment Complete for a card order (spec section 4). The order call answers only its id, so
 * the payment is read from the new order; without it the page's confirmation still stands.
 */
export async function showPaymentComplete(orderId: number) {
  try {
    const [{ orderDetails }, { webBase }] = await Promise.all([
      call(getAccountOrder, undefined, { orderId }),
      loadConfig(),
    ]);
    const session = $session.get();
    const email = session.status === "signedIn" ? session.info.email : "";
    if ($placedOrder.get()?.orderId === orderId)
      $quotePaymentDone.set(receiptOf(orderDetails, webBase, email));
  } catch {
    // The confirmation on the page names the order and links to it; the receipt is mailed.
  }
}
