import type { EpochSeconds } from "./brand.ts";

export const ORDER_PREFIX = "ORD-";
/** Order due date is the shipping timestamp plus 30 days. */
export const DUE_AFTER_SECONDS = 2_592_000;

export type BillingStatus = "Cancelled" | "Refunded" | "Closed" | "Paid" | "Open";

/** Order payment status to billing status (spec section 4). */
export function billingStatus(paymentStatus: string | null | undefined): BillingStatus {
  switch ((paymentStatus ?? "").trim().toLowerCase()) {
    case "cancelled":
      return "Cancelled";
    case "refunded":
      return "Refunded";
    case "closed":
      return "Closed";
    case "pending":
    case "paid":
      return "Paid";
    default:
      return "Open";
  }
}

const SETTLED = new Set(["cancelled", "closed", "paid", "hold", "dead", "refunded"]);

/** An order needs payment when it has a payment status outside the settled set. */
export function needsPayment(paymentStatus: string | null | undefined): boolean {
  const s = (paymentStatus ?? "").trim().toLowerCase();
  return s !== "" && !SETTLED.has(s);
}

export type PublicShippingStatus = "cancelled" | "received" | "hold" | "partial" | "delivered" | "shipped";

/** The public order page's shipping statusType (spec section 4, first computation). */
export function publicShippingStatus(order: {
  shippingStatus: string | null;
  shippingTimestamp: EpochSeconds | null;
  shipments: readonly { isDelivered: boolean }[];
}): PublicShippingStatus {
  const status = (order.shippingStatus ?? "").trim().toLowerCase();
  if (status === "cancelled") return "cancelled";
  if (status === "open") return "received";
  if (status === "hold") return "hold";
  const delivered = order.shipments.filter((s) => s.isDelivered).length;
  if (order.shipments.length > 1 && delivered > 0 && delivered < order.shipments.length) {
    return "partial";
  }
  if (order.shipments.length > 0 && delivered === order.shipments.length) return "delivered";
  if (order.shippingTimestamp && status === "shipped") return "shipped";
  return "received";
}

/** Due date = shipping timestamp + 2,592,000 s; null before shipping. */
export function dueDate(shippingTimestamp: EpochSeconds | null): EpochSeconds | null {
  return shippingTimestamp ? ((shippingTimestamp + DUE_AFTER_SECONDS) as EpochSeconds) : null;
}

/** The PO number shown, or '-' when absent. */
export function poDisplay(poNumber: string | null | undefined): string {
  return poNumber && poNumber.trim() !== "" ? poNumber : "-";
}

/** The shareable public reference ORD-{id}-{validationId}. */
export function publicOrderRef(id: number, validationId: string): string {
  return `${ORDER_PREFIX}${id}-${validationId}`;
}

/** Order ids in links follow the pattern id-(id+crmOrgId). */
export function orderLinkId(id: number, crmOrgId: number): string {
  return `${id}-${id + crmOrgId}`;
}

/** Reads "ORD-12-abc" or "12-abc" into its id and validation id. */
export function parsePublicOrderRef(text: string): { id: number; validationId: string } | null {
  const m = /^(?:ORD-)?(\d{1,12})-([A-Za-z0-9_-]{1,64})$/i.exec(text.trim());
  return m ? { id: Number(m[1]), validationId: m[2]! } : null;
}

/** Balance due: the grand total less what was paid, never below zero. */
export function balanceDue(grandTotal: number, paid: number): number {
  return Math.max(0, grandTotal - paid);
}

/** 'Pay as Guest' shows on an order that needs payment, still owes money and is not closed. */
export function orderPayable(order: { paymentStatus: string | null; balanceDue: number }): boolean {
  return needsPayment(order.paymentStatus) && order.balanceDue > 0;
}

/** The signed-in shipping progress (spec section 4, the second computation; docs/decisions.md). */
export const SHIPPING_PROGRESS = [
  "received",
  "shipped",
  "delivered",
  "partial",
  "cancelled",
  "hold",
  "completed",
  "unknown",
] as const;
export type ShippingProgress = (typeof SHIPPING_PROGRESS)[number];

const COMPLETE = new Set(["no shipment", "complete", "completed"]);
const PROGRESS_BY_WORD: Record<string, ShippingProgress> = {
  "": "received",
  new: "received",
  open: "received",
  received: "received",
  shipped: "shipped",
  delivered: "delivered",
  partial: "partial",
};

/**
 * The exact rule the spec leaves open: the status words Cancelled, Hold and No Shipment (or
 * Complete) decide alone; otherwise shipped item quantities against ordered ones give partial,
 * then delivered when every shipment arrived, else shipped; with nothing shipped the status
 * word says received, shipped or delivered, and anything else is unknown.
 */
export function shippingProgress(order: {
  shippingStatus: string;
  ordered: number;
  shipped: number;
  shipments: readonly { isDelivered: boolean }[];
}): ShippingProgress {
  const status = order.shippingStatus.trim().toLowerCase();
  if (status === "cancelled") return "cancelled";
  if (status === "hold") return "hold";
  if (COMPLETE.has(status)) return "completed";
  if (order.shipments.length) {
    if (order.shipped < order.ordered) return "partial";
    return order.shipments.every((s) => s.isDelivered) ? "delivered" : "shipped";
  }
  return PROGRESS_BY_WORD[status] ?? "unknown";
}
