import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { idField, orDefault } from "./fields.ts";
import { MAX_PAYMENT_CENTS } from "./payments.ts";
import { cents } from "./records.ts";

/*
 * The back-office operations API: quotes, shipments, carrier activity and offline payments
 * come from the company's own systems. Every call needs `Authorization: Bearer ops_…` (a
 * token from `npm run ops -- token create`) and every write an `Idempotency-Key` header: the
 * same key with the same request answers the first answer again, with another request 409.
 */

const OPS = "/api/v1/ops";
const MAX_CENTS = 100_000_000_000;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required.`),
      z.maxLength(max, `${label} is at most ${max} characters.`),
    );
const optionalText = (label: string, max: number) => z.optional(z.nullable(text(label, max)));
const amountField = (label: string, min: number) =>
  z
    .int({ error: `${label} must be a whole number of cents.` })
    .check(
      z.minimum(min, `${label} must be at least ${min} cents.`),
      z.maximum(MAX_CENTS, `${label} is too large.`),
    );
const epochField = z
  .int({ error: "Must be a time in epoch seconds." })
  .check(z.minimum(0, "Must be a time in epoch seconds."), z.maximum(32_503_680_000, "Must be before 3000."));

/** "10%", "$5", "5" or "5.50": the line item's discount (spec section 3). */
const DISCOUNT = /^\s*(\d{1,3}(\.\d{1,2})?\s*%|\$?\s*\d{1,9}(\.\d{1,2})?)\s*$/;

export const OpsAddressSchema = z.object({
  companyName: optionalText("Company name", 200),
  contactName: optionalText("Contact name", 200),
  attention: optionalText("Attention", 200),
  line1: optionalText("Address line 1", 200),
  line2: optionalText("Address line 2", 200),
  city: optionalText("City", 100),
  state: optionalText("State", 100),
  zipCode: optionalText("Zip code", 20),
  countryId: z.optional(z.nullable(idField)),
  phoneNumber: optionalText("Phone number", 40),
});
export type OpsAddress = z.output<typeof OpsAddressSchema>;

export const OpsLineItemSchema = z
  .object({
    productNumber: text("Product number", 100),
    description: text("Description", 500),
    quantity: z
      .int({ error: "Quantity must be a whole number." })
      .check(z.minimum(1, "Quantity must be at least 1."), z.maximum(100_000, "Quantity is at most 100000.")),
    discount: z.optional(
      z.nullable(z.string().check(z.regex(DISCOUNT, "Discount is a percentage (10%) or an amount ($5.50)."))),
    ),
    listPrice: amountField("List price", 0),
  })
  .check(
    // Each line within one payment, so that sums of lines stay exact (2^53) and the quote's
    // total check (server/data/opsQuotes.ts) cannot be slipped past by rounding.
    z.refine((line) => line.quantity * line.listPrice <= MAX_PAYMENT_CENTS, {
      message: "A line's quantity times its price is larger than one payment can carry.",
      path: ["quantity"],
    }),
  );

export const OpsSpecialistSchema = z.object({
  name: text("Specialist name", 200),
  phone: optionalText("Specialist phone", 40),
  phoneExtension: optionalText("Specialist extension", 20),
});

const lineItems = z
  .array(OpsLineItemSchema)
  .check(z.minLength(1, "A quote has at least one line item."), z.maxLength(200, "At most 200 line items."));

/** The fields a quote update may change (each left out stays as it is). */
const quoteFields = {
  status: z.optional(text("Status", 50)),
  productFamily: z.optional(text("Product family", 100)),
  contactName: z.optional(text("Contact name", 200)),
  contactEmail: optionalText("Contact email", 254),
  expiresAt: z.optional(z.nullable(epochField)),
  currency: z.optional(z.union([z.literal(1), z.literal(2)], { error: "Currency is 1 (USD) or 2 (EUR)." })),
  needsShipping: z.optional(z.boolean({ error: "needsShipping is true or false." })),
  shippingAddress: z.optional(z.nullable(OpsAddressSchema)),
  billingAddress: z.optional(z.nullable(OpsAddressSchema)),
  productSpecialist: z.optional(z.nullable(OpsSpecialistSchema)),
  shippingCost: z.optional(amountField("Shipping cost", 0)),
  shippingCarrier: optionalText("Shipping carrier", 100),
  shippingMethod: optionalText("Shipping method", 100),
  tax: z.optional(amountField("Tax", 0)),
  lineItems: z.optional(lineItems),
};

export const OpsQuoteRequest = z.object({
  /** The back office's own quote number: the portal shows QUO-{id}. */
  id: idField,
  subscriptionId: idField,
  ...quoteFields,
  productFamily: text("Product family", 100),
  contactName: text("Contact name", 200),
  lineItems,
});
export type OpsQuoteInput = z.output<typeof OpsQuoteRequest>;
export const OpsQuoteUpdateRequest = z.object(quoteFields);
export type OpsQuoteUpdate = z.output<typeof OpsQuoteUpdateRequest>;

export const OpsQuoteAnswer = z.object({
  id: z.int(),
  quoteNumber: z.string(),
  status: z.string(),
  /** The token of the quote's full public page, /p/quote/{publicToken}. */
  publicToken: z.string(),
  subtotal: cents,
  grandTotal: cents,
  lineItemCount: z.int(),
});

export const createOpsQuote = endpoint({
  method: "post",
  path: `${OPS}/quotes`,
  host: "api",
  body: "json",
  request: OpsQuoteRequest,
  response: OpsQuoteAnswer,
  summary: "Back office: creates a quote with its line items, addresses and product specialist.",
});

export const updateOpsQuote = endpoint({
  method: "patch",
  path: `${OPS}/quotes/:quoteId`,
  host: "api",
  body: "json",
  request: OpsQuoteUpdateRequest,
  response: OpsQuoteAnswer,
  summary: "Back office: changes an open quote; lineItems, when given, replace all of them.",
});

export const closeOpsQuote = endpoint({
  method: "post",
  path: `${OPS}/quotes/:quoteId/close`,
  host: "api",
  body: "none",
  request: undefined,
  response: OpsQuoteAnswer,
  summary: "Back office: closes a quote (its page then shows Closed and takes no payment).",
});

const trackingNumberField = z
  .string({ error: "Tracking numbers are text." })
  .check(z.trim(), z.regex(/^[A-Za-z0-9-]{4,40}$/, "A tracking number is 4 to 40 letters, digits or '-'."));

export const OpsShipRequest = z.object({
  carrier: text("Carrier", 100),
  shipMethod: text("Ship method", 100),
  /** One shipment per tracking number (one per package). */
  trackingNumbers: z
    .array(trackingNumberField)
    .check(
      z.minLength(1, "Give at least one tracking number."),
      z.maxLength(20, "At most 20 tracking numbers."),
    ),
  shippedAt: z.optional(epochField),
  /** What the first package carries; left out, every item not yet shipped. */
  items: z.optional(
    z
      .array(
        z.object({ productNumber: text("Product number", 100), quantity: OpsLineItemSchema.shape.quantity }),
      )
      .check(z.minLength(1, "Give at least one item, or leave items out.")),
  ),
});
export type OpsShipInput = z.output<typeof OpsShipRequest>;

export const shipOpsOrder = endpoint({
  method: "post",
  path: `${OPS}/orders/:orderId/shipments`,
  host: "api",
  body: "json",
  request: OpsShipRequest,
  response: z.object({
    orderId: z.int(),
    shippingStatus: z.string(),
    shipments: z.array(z.object({ id: z.int(), trackingNumber: z.string() })),
  }),
  summary:
    "Back office: marks an order shipped with carrier, method and tracking numbers (one shipment each).",
});

export const OpsActivityRequest = z.object({
  occurredAt: epochField,
  locationDescription: orDefault(
    z.string().check(z.trim(), z.maxLength(200, "Location is at most 200 characters.")),
    "",
  ),
  description: text("Description", 500),
  signedForByName: optionalText("Signed for by", 200),
  /** This scan is the delivery: the shipment (and the order, once all arrived) is delivered. */
  delivered: orDefault(z.boolean({ error: "delivered is true or false." }), false),
});
export type OpsActivityInput = z.output<typeof OpsActivityRequest>;

export const addOpsTrackingActivity = endpoint({
  method: "post",
  path: `${OPS}/tracking/:trackingNumber/activity`,
  host: "api",
  body: "json",
  request: OpsActivityRequest,
  response: z.object({
    id: z.int(),
    trackingNumber: z.string(),
    isDelivered: z.boolean(),
    shippingStatus: z.string(),
  }),
  summary: "Back office: adds a carrier scan to a tracking number (the tracking modal shows it).",
});

export const OpsPaymentRequest = z.object({
  kind: z.enum(["payment", "refund"], { error: "kind is payment or refund." }),
  amount: amountField("Amount", 1),
  /** How the money moved: Check, Wire, ACH… */
  method: text("Method", 50),
  reference: optionalText("Reference", 100),
  receivedAt: z.optional(epochField),
});
export type OpsPaymentInput = z.output<typeof OpsPaymentRequest>;

export const recordOpsPayment = endpoint({
  method: "post",
  path: `${OPS}/orders/:orderId/payments`,
  host: "api",
  body: "json",
  request: OpsPaymentRequest,
  response: z.object({
    paymentId: z.int(),
    paymentStatus: z.string(),
    paid: cents,
    balanceDue: cents,
  }),
  summary: "Back office: records an offline payment or a refund on an order; the balance follows.",
});
