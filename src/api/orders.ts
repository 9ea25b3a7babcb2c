import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";
import { CardFields, idempotencyKeyField, shownAmountField } from "./payments.ts";
import { AddressSchema, amounts, epoch, LineItemSchema } from "./records.ts";
import { ShipmentSchema } from "./shipments.ts";

export const PaymentSchema = z.object({
  id: z.int(),
  createdAt: epoch,
  ...amounts("amount"),
  method: z.string(),
  cardBrand: z.nullable(z.string()),
  cardLast4: z.nullable(z.string()),
});

export const TimelineEventSchema = z.object({
  at: epoch,
  kind: z.enum(["quote", "order", "payment", "shipped", "carrier", "delivered"]),
  text: z.string(),
});

/**
 * An order as its link shows it (spec section 3, Order, with the spec's names; the portal's
 * additions beside them). The derived values come from src/domain/order.ts on the server, so
 * the page only formats them.
 */
export const OrderDetailsSchema = z.object({
  id: z.int(),
  orderNumber: z.string(),
  productFamily: z.string(),
  createdAt: epoch,
  shippingTimestamp: z.nullable(epoch),
  shippingStatus: z.string(),
  /** The public statusType: cancelled, received, hold, partial, delivered or shipped. */
  statusType: z.enum(["cancelled", "received", "hold", "partial", "delivered", "shipped"]),
  poNumber: z.nullable(z.string()),
  paymentStatus: z.string(),
  billingStatus: z.enum(["Cancelled", "Refunded", "Closed", "Paid", "Open"]),
  needsPayment: z.boolean(),
  /** 'Pay as Guest' shows: needs payment and owes money. */
  payable: z.boolean(),
  paymentType: z.nullable(z.string()),
  currency: z.int(),
  /** The CRM organisation the order belongs to (order links: id-(id+crmOrgId)). */
  crmOrgId: z.int(),
  shippingAddress: z.nullable(AddressSchema),
  billingAddress: z.nullable(AddressSchema),
  /** The spec's orderLineItemList, which its pages show as lineItems. */
  orderLineItemList: z.array(LineItemSchema),
  /** Items ordered: the sum of the line items' quantities. */
  numItems: z.int(),
  /** paid is what the payments add up to; paymentBalanceDue what is left to pay. */
  ...amounts("subtotal", "tax", "shippingAmount", "grandTotal", "paid", "paymentBalanceDue"),
  /** Shipping time + 30 days; null before shipping. */
  dueDate: z.nullable(epoch),
  shipMethod: z.nullable(z.string()),
  shipCarrier: z.nullable(z.string()),
  referrerCode: z.nullable(z.string()),
  payments: z.array(PaymentSchema),
  /** The order's shipments, as GET /api/v1/shipments/shipment-list/{ref} answers them. */
  shipmentList: z.array(ShipmentSchema),
  trackingNumbers: z.array(z.string()),
  /** Quote created, order placed, payments, shipments and carrier events, oldest first. */
  timeline: z.array(TimelineEventSchema),
  /**
   * The signed-in detail page, when the caller is signed in to the order's subscription
   * (spec section 4: such a visitor is sent there); null otherwise.
   */
  memberPath: z.nullable(z.string()),
  /** True when the caller is signed in to another subscription: their page says whom to ask. */
  signedInElsewhere: z.optional(z.literal(true)),
  /** False when nothing ships (a subscription, a data service): its quote said so. */
  needsShipping: z.boolean(),
});
export type OrderDetails = z.infer<typeof OrderDetailsSchema>;

/** `ref` is ORD-{id}-{validationId} or {id}-{validationId}; the validation id is the secret. */
export const getPublicOrder = endpoint({
  method: "get",
  path: PUBLIC_API.order,
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ orderDetails: OrderDetailsSchema }),
  summary: "An order as its shared link shows it: status, billing, items, payments, shipments, timeline.",
});

/** The guest's payment of an order's whole balance (the card fields of POST /order/pay-amount-due). */
export const payOrderAsGuest = endpoint({
  method: "post",
  path: "/order/public/:ref/pay-amount-due",
  host: "web",
  body: "form",
  request: z.object({
    ...CardFields,
    /** The balance the page showed; refused when it is no longer the order's balance. */
    balanceDue: shownAmountField,
    paymentAmount: shownAmountField,
    purchaseOrderNumber: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    idempotencyKey: idempotencyKeyField,
  }),
  response: z.object({
    paymentId: z.int(),
    currency: z.int(),
    ...amounts("amount", "paymentBalanceDue"),
    cardBrand: z.string(),
    cardLast4: z.string(),
    billingStatus: z.enum(["Cancelled", "Refunded", "Closed", "Paid", "Open"]),
    /** The receipt PDF of this payment. */
    receiptPath: z.string(),
  }),
  summary:
    "Pays an order's balance by card as a guest; one charge per idempotency key, a receipt mailed to the email given.",
});

/** The receipt of one payment, as a PDF (the answer is the file, not JSON). */
export const getPaymentReceipt = endpoint({
  method: "get",
  path: "/order/public/:ref/receipt/:paymentId",
  host: "web",
  body: "none",
  request: undefined,
  response: z.string(),
  summary: "A payment's receipt as application/pdf.",
});
