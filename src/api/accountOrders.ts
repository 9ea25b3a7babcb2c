import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { OrderDetailsSchema } from "./orders.ts";
import { FullQuoteSchema } from "./quotes.ts";
import { amounts, epoch } from "./records.ts";
import { ShipmentSchema } from "./shipments.ts";
import { SHIPPING_PROGRESS, type ShippingProgress } from "../domain/order.ts";

/*
 * The signed-in quote and order pages of the active subscription (spec section 2, /s/orders/…,
 * /s/quotes/details/QUO-{n}, /s/order/details/{id}). Paths sit beside the public ones
 * (/api/v1/orders/public/{ref}, /api/v1/quotes/public/{id}) without clashing: a bare id is
 * one segment, the public forms two.
 */

/** The most rows one list answers; `truncated` says when the subscription has more. */
export const LIST_LIMIT = 500;

/** The signed-in shipping progress (spec section 4, the second computation; see docs/decisions.md). */
export const ShippingProgressSchema = z.enum(SHIPPING_PROGRESS);
export type { ShippingProgress };

export const OrderSummarySchema = z.object({
  id: z.int(),
  orderNumber: z.string(),
  createdAt: epoch,
  shippingProgress: ShippingProgressSchema,
  billingStatus: z.enum(["Cancelled", "Refunded", "Closed", "Paid", "Open"]),
  poNumber: z.nullable(z.string()),
  currency: z.int(),
  ...amounts("grandTotal", "paymentBalanceDue"),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

export const QuoteSummarySchema = z.object({
  id: z.int(),
  quoteNumber: z.string(),
  status: z.string(),
  isOpen: z.boolean(),
  createdAt: epoch,
  expiresAt: z.nullable(epoch),
  currency: z.int(),
  ...amounts("grandTotal"),
});
export type QuoteSummary = z.infer<typeof QuoteSummarySchema>;

export const listAccountOrders = endpoint({
  method: "get",
  path: "/api/v1/orders",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ orderList: z.array(OrderSummarySchema), limit: z.int(), truncated: z.boolean() }),
  summary: "The active subscription's orders, newest first, at most `limit` of them.",
});

export const listAccountQuotes = endpoint({
  method: "get",
  path: "/api/v1/quotes",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ quoteList: z.array(QuoteSummarySchema), limit: z.int(), truncated: z.boolean() }),
  summary: "The active subscription's quotes, newest first, at most `limit` of them.",
});

/**
 * An order as its signed-in page shows it: the public order's fields (memberPath null) plus
 * the signed-in shipping progress and how many ordered items have not shipped yet.
 */
export const AccountOrderSchema = z.extend(OrderDetailsSchema, {
  shippingProgress: ShippingProgressSchema,
  unshippedItems: z.int(),
  /**
   * The order's public page /p/order/ORD-{id}-{validationId} for Get Link To This Order, given
   * only to roles with the share-link privilege (null otherwise): the link opens the order
   * for anyone who has it, so it is a sharing right in itself.
   */
  publicPath: z.nullable(z.string()),
});
export type AccountOrder = z.infer<typeof AccountOrderSchema>;

export const getAccountOrder = endpoint({
  method: "get",
  path: "/api/v1/orders/:orderId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ orderDetails: AccountOrderSchema }),
  summary: "One order of the active subscription; another subscription's answers 404 like a missing one.",
});

/** A quote as its signed-in page shows it: always the full quote, never its guest token. */
export const AccountQuoteSchema = z.extend(FullQuoteSchema, {
  /** The order the quote became once ordered, else null. */
  orderId: z.nullable(z.int()),
});
export type AccountQuote = z.infer<typeof AccountQuoteSchema>;

export const getAccountQuote = endpoint({
  method: "get",
  path: "/api/v1/quotes/:quoteId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ quoteDetails: AccountQuoteSchema }),
  summary: "One quote of the active subscription by its id (QUO-{id}); another subscription's answers 404.",
});

/**
 * An order's shipments for its signed-in page (spec section 7: the signed-in form answers
 * `shipmentList`). The public GET /api/v1/shipments/shipment-list/{ref} takes the token
 * reference at the same depth, so the member's call names the order id one level below.
 */
export const getAccountShipmentList = endpoint({
  method: "get",
  path: "/api/v1/shipments/shipment-list/order/:orderId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ shipmentList: z.array(ShipmentSchema) }),
  summary: "An order's shipments, for a member of the order's subscription.",
});

/** A payment's receipt PDF for a member of the order's subscription (the answer is the file). */
export const getAccountPaymentReceipt = endpoint({
  method: "get",
  path: "/api/v1/orders/:orderId/receipt/:paymentId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.string(),
  summary: "A payment's receipt as application/pdf, for a member of the order's subscription.",
});
