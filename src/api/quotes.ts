import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";
import { CardFields, idempotencyKeyField, shownAmountField } from "./payments.ts";
import { AddressSchema, cents, epoch, LineItemSchema } from "./records.ts";

/** What only the token link shows: addresses, prices, the specialist. */
export const QuoteDetailSchema = z.object({
  currency: z.int(),
  needsShipping: z.boolean(),
  contactName: z.string(),
  shippingAddress: z.nullable(AddressSchema),
  billingAddress: z.nullable(AddressSchema),
  productSpecialist: z.object({
    name: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    phoneExtension: z.nullable(z.string()),
  }),
  shippingCost: cents,
  shippingCarrier: z.nullable(z.string()),
  shippingMethod: z.nullable(z.string()),
  tax: cents,
  lineItems: z.array(LineItemSchema),
  subtotal: cents,
  grandTotal: cents,
});
export type QuoteDetail = z.infer<typeof QuoteDetailSchema>;

/**
 * A quote's summary card (spec section 3, Quote). `detail` and `guestToken` are there only
 * when the quote was opened with its token link: QUO-{n} is a sequential number, so it shows
 * the summary alone.
 */
export const QuoteDetailsSchema = z.object({
  id: z.int(),
  quoteNumber: z.string(),
  productFamily: z.string(),
  status: z.string(),
  isOpen: z.boolean(),
  createdAt: epoch,
  expiresAt: z.nullable(epoch),
  /** 'Pay as Guest' shows: open, unexpired, not yet ordered, and opened with the token. */
  payable: z.boolean(),
  guestToken: z.nullable(z.string()),
  detail: z.nullable(QuoteDetailSchema),
  memberPath: z.nullable(z.string()),
  /** True when the caller is signed in to another subscription: their page says whom to ask. */
  signedInElsewhere: z.optional(z.literal(true)),
});
export type QuoteDetails = z.infer<typeof QuoteDetailsSchema>;

/** `id` is QUO-{n}, {n} (summary only) or the quote's token (summary and detail). */
export const getPublicQuote = endpoint({
  method: "get",
  path: PUBLIC_API.quote,
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ quoteDetails: QuoteDetailsSchema }),
  summary: "A quote as its shared link shows it; the full quote only with the token link.",
});

/** The guest's order of a quote by card (the card fields of POST /quote/order). */
export const orderQuoteAsGuest = endpoint({
  method: "post",
  path: "/quote/public/:token/order",
  host: "web",
  body: "form",
  request: z.object({
    ...CardFields,
    /** The grand total the page showed; refused when it is no longer the quote's. */
    grandTotal: shownAmountField,
    contactPhone: z.optional(z.string().check(z.trim(), z.maxLength(40))),
    purchaseOrderNumber: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    customerComment: z.optional(z.string().check(z.trim(), z.maxLength(2000))),
    idempotencyKey: idempotencyKeyField,
  }),
  response: z.object({
    orderId: z.int(),
    /** /p/order/ORD-{id}-{validationId}, where the browser goes next. */
    orderPath: z.string(),
  }),
  summary: "Orders a quote as a guest, paying by card; one order and one charge per idempotency key.",
});
