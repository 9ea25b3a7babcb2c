import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { PUBLIC_API } from "./paths.ts";
import { CardFields, idempotencyKeyField, shownAmountField } from "./payments.ts";
import { AddressSchema, amounts, epoch, LineItemSchema } from "./records.ts";

/** What only the token link shows: addresses, prices, the specialist (spec section 3, Quote). */
export const QuoteDetailSchema = z.object({
  currency: z.int(),
  /** The CRM organisation the quote belongs to. */
  crmOrgId: z.int(),
  needsShipping: z.boolean(),
  contactName: z.string(),
  shippingAddress: z.nullable(AddressSchema),
  billingAddress: z.nullable(AddressSchema),
  productSpecialist: z.object({
    name: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    phoneExtension: z.nullable(z.string()),
  }),
  shippingCarrier: z.nullable(z.string()),
  shippingMethod: z.nullable(z.string()),
  /** Carrier and method in one line ("UPS Ground"); empty when the quote names neither. */
  shippingDetailsString: z.string(),
  quoteLineItemList: z.array(LineItemSchema),
  /** Items quoted: the sum of the line items' quantities. */
  numItems: z.int(),
  ...amounts("subtotal", "tax", "shippingCost", "grandTotal"),
});
export type QuoteDetail = z.infer<typeof QuoteDetailSchema>;

/** Each of a shape's fields, or null: what a summary withholds. */
function withheld<S extends Record<string, z.ZodMiniType>>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, z.nullable(v)])) as {
    [K in keyof S]: z.ZodMiniNullable<S[K]>;
  };
}

const QuoteSummaryShape = {
  id: z.int(),
  quoteNumber: z.string(),
  productFamily: z.string(),
  status: z.string(),
  /** The spec's statusType: the same value as status ('Closed', or anything else: open). */
  statusType: z.string(),
  isOpen: z.boolean(),
  createdAt: epoch,
  expiresAt: z.nullable(epoch),
  /** 'Pay as Guest' shows: open, unexpired, not yet ordered, and opened with the token. */
  payable: z.boolean(),
  guestToken: z.nullable(z.string()),
  memberPath: z.nullable(z.string()),
  /** True when the caller is signed in to another subscription: their page says whom to ask. */
  signedInElsewhere: z.optional(z.literal(true)),
};

/**
 * A quote's card (spec section 3, Quote, with the spec's names). The QuoteDetailSchema fields
 * and `guestToken` are filled only when the quote was opened with its token link: QUO-{n} is
 * a sequential number, so it shows the summary alone and those fields are null.
 */
export const QuoteDetailsSchema = z.object({ ...QuoteSummaryShape, ...withheld(QuoteDetailSchema.shape) });
export type QuoteDetails = z.infer<typeof QuoteDetailsSchema>;

/** A quote with its token-only fields (opened with the token link, or signed in). */
export const FullQuoteSchema = z.object({ ...QuoteSummaryShape, ...QuoteDetailSchema.shape });
export type FullQuote = z.infer<typeof FullQuoteSchema>;

/** The quote with its token-only fields, or null for a summary (they are withheld together). */
export function fullQuote(q: QuoteDetails): FullQuote | null {
  return q.quoteLineItemList === null ? null : (q as FullQuote);
}

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
