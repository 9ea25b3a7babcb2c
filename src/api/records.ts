import * as z from "zod/mini";

/*
 * Parts shared by the quote, order and shipment contracts (and the signed-in pages later).
 * Money travels as the spec names it (decimal currency units and a display string) beside the
 * portal's integer cents, with the record's currency id; times are epoch seconds.
 */

export const cents = z.int();
export const epoch = z.int();

/**
 * The fields of amounts named as the spec names them: `{name}` in currency units (1524.25),
 * `{name}Display` as section 9 shows it ("$1,524.25", "€…"), and the portal's `{name}Cents`
 * (152425), which its own arithmetic uses. src/domain/money.ts `amountsOf` fills them.
 */
export function amounts<const K extends string>(...names: K[]) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of names) {
    shape[name] = z.number();
    shape[`${name}Display`] = z.string();
    shape[`${name}Cents`] = cents;
  }
  return shape as { [P in K]: z.ZodMiniNumber<number> } & {
    [P in K as `${P}Display`]: z.ZodMiniString<string>;
  } & { [P in K as `${P}Cents`]: typeof cents };
}

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
  currency: z.int(),
  /** listPrice; lineTotal is quantity × price less the discount, never below zero (src/domain/lineItem.ts). */
  ...amounts("listPrice", "lineTotal"),
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
