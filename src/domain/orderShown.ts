import type { BillingStatus } from "./order.ts";

/*
 * What a signed-in order page and list show where the spec is silent (docs/decisions.md):
 * an order with nothing to ship shows no shipping tracker, and an order that is cancelled,
 * refunded or closed owes nothing, whatever its totals less its payments come to.
 */

/** Billing statuses under which nothing is collected: the status is shown, not an amount. */
const OWES_NOTHING: ReadonlySet<BillingStatus> = new Set(["Cancelled", "Refunded", "Closed"]);

/** The balance as shown: an amount due, or the status that settles it ("Cancelled"). */
export function shownBalance(order: {
  billingStatus: BillingStatus;
  paymentBalanceDueCents: number;
}): { kind: "amount"; cents: number } | { kind: "status"; status: BillingStatus } {
  return OWES_NOTHING.has(order.billingStatus)
    ? { kind: "status", status: order.billingStatus }
    : { kind: "amount", cents: order.paymentBalanceDueCents };
}

/**
 * Nothing to ship (a subscription, a data service): the record says so (`needsShipping`
 * false, as its quote said); a record without the flag has nothing to ship when it has no
 * shipping address, charges no shipping and has no shipment — an order placed from a quote
 * that needed no shipping looks exactly so.
 */
export function shipsNothing(order: {
  needsShipping?: boolean | undefined;
  shippingAddress?: unknown;
  shippingAmount?: number;
  shipmentCount?: number;
}): boolean {
  if (order.needsShipping !== undefined) return !order.needsShipping;
  if (!("shippingAddress" in order)) return false;
  return order.shippingAddress === null && order.shippingAmount === 0 && (order.shipmentCount ?? 0) === 0;
}

/**
 * The remaining-items note (spec section 4: unshipped items and not complete), also kept off
 * an order that will never ship them: cancelled, or with nothing to ship.
 */
export function remainingItemsNoted(order: {
  unshippedItems: number;
  shippingProgress: string;
  shipsNothing: boolean;
}): boolean {
  return (
    order.unshippedItems > 0 &&
    !order.shipsNothing &&
    order.shippingProgress !== "completed" &&
    order.shippingProgress !== "cancelled"
  );
}
