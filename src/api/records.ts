import * as z from "zod/mini";

/*
 * Parts shared by the quote, order and shipment contracts (and the signed-in pages later).
 * Money is integer cents with the record's currency id; times are epoch seconds.
 */

export const cents = z.int();
export const epoch = z.int();

export const CountrySchema = z.object({
  id: z.int(),
  crmId: z.int(),
  code: z.string(),
  name: z.string(),
  abbreviation: z.string(),
});
export type Country = z.infer<typeof CountrySchema>;

/** An address; null where the record has none ('No Address'). */
export const AddressSchema = z.object({
  id: z.int(),
  companyName: z.nullable(z.string()),
  contactName: z.nullable(z.string()),
  attention: z.nullable(z.string()),
  line1: z.nullable(z.string()),
  line2: z.nullable(z.string()),
  city: z.nullable(z.string()),
  state: z.nullable(z.string()),
  zipCode: z.nullable(z.string()),
  country: z.nullable(z.object({ id: z.int(), name: z.string(), code: z.string() })),
  phoneNumber: z.nullable(z.string()),
});
export type Address = z.infer<typeof AddressSchema>;

export const LineItemSchema = z.object({
  productNumber: z.string(),
  description: z.string(),
  quantity: z.int(),
  discount: z.nullable(z.string()),
  listPrice: cents,
  currency: z.int(),
  /** Quantity × price less the discount, never below zero (src/domain/lineItem.ts). */
  lineTotal: cents,
});
export type LineItem = z.infer<typeof LineItemSchema>;

/** The card fields of a payment (spec section 5); the year is two digits. */
export const CARD_FIELDS = [
  "cardNumber",
  "cardExpirationMonth",
  "cardExpirationYear",
  "cardCvv",
  "email",
] as const;
