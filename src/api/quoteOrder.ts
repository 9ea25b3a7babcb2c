import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField, ID_RANGE, MAX_ID, orDefault } from "./fields.ts";
import { idempotencyKeyField, shownAmountField } from "./payments.ts";
import { payOrderAsGuest } from "./orders.ts";
import { amounts, cents } from "./records.ts";

/*
 * Ordering a quote and paying an order's balance signed in (spec section 7, "Signed-in quote
 * and order calls"; web host, form-encoded or multipart). Amounts travel as integer cents,
 * like the guest payments'. The server recomputes shipping, tax and totals itself: the ones
 * sent are only compared with its own.
 */

/** A record id typed into a form field: digits, 1 to 2147483647. */
export const formIdField = z.string({ error: ID_RANGE }).check(
  z.trim(),
  // Aborts: the range check after it would say the same thing again.
  z.regex(/^\d{1,10}$/, { error: ID_RANGE, abort: true }),
  z.refine((v) => Number(v) >= 1 && Number(v) <= MAX_ID, ID_RANGE),
);

/** An optional text field, trimmed; absent reads as empty. */
export const textField = (max: number) =>
  orDefault(z.string().check(z.trim(), z.maxLength(max, `Must be at most ${max} characters.`)), "");

/** The messages of the order form's own fields (the spec names the fields, not the words). */
export const QUOTE_ORDER_MESSAGES = {
  contactPhone: "Enter a valid phone number.",
  purchaseOrderNumber: "Enter the purchase order number.",
  purchaseOrderFile: "Choose the purchase order file.",
  paymentMethod: "Choose 'Online - CC' or 'Purchase Order'.",
  tax: "The tax sent is not the tax of this order. Refresh the tax and try again.",
  shippingPrice:
    "The shipping price sent is not the price of the chosen shipping option. Refresh the shipping options and try again.",
  shippingMethod: "Choose one of the shipping options offered for this address.",
} as const;

/** One shipping option (spec section 3, Shipping option), in the quote's currency. */
export const ShippingOptionSchema = z.object({
  serviceCode: z.string(),
  name: z.string(),
  /** The price in currency units (25.5), as section 9 shows it ("$25.50"), and in cents (2550). */
  price: z.number(),
  displayPrice: z.string(),
  priceCents: cents,
  serviceName: z.string(),
  carrierName: z.string(),
  isDisabled: z.boolean(),
});
export type ShippingOption = z.infer<typeof ShippingOptionSchema>;

export const getShippingRates = endpoint({
  method: "post",
  path: "/quote/shipping-rates",
  host: "web",
  body: "form",
  request: z.object({
    quoteId: formIdField,
    contactName: textField(200),
    companyName: textField(200),
    line1: textField(200),
    city: textField(100),
    state: textField(100),
    countryCode: textField(2),
    zip: textField(20),
  }),
  response: z.array(ShippingOptionSchema),
  summary:
    "The shipping options of a quote for an address (disabled ones included); address problems come back as zip, line1, city or country field errors.",
});

export const getQuoteTax = endpoint({
  method: "post",
  path: "/quote/tax",
  host: "web",
  body: "form",
  request: z.object({
    quoteId: formIdField,
    shippingMethod: textField(100),
    /** The chosen option's price in cents: shipping is taxed with the goods. */
    shippingAmount: shownAmountField,
    line1: textField(200),
    line2: textField(200),
    city: textField(100),
    region: textField(100),
    countryCode: textField(2),
    postalCode: textField(20),
  }),
  response: z.object(amounts("tax")),
  summary: "A quote's tax for a shipping address and shipping amount, from the region's rate.",
});

/** An address of the order form, its fields prefixed 'shippingAddress' or 'billingAddress'. */
const addressFields = <P extends string>(prefix: P) =>
  ({
    [`${prefix}CompanyName`]: textField(200),
    [`${prefix}ContactName`]: textField(200),
    [`${prefix}AddressLine1`]: textField(200),
    [`${prefix}AddressLine2`]: textField(200),
    [`${prefix}City`]: textField(100),
    [`${prefix}State`]: textField(100),
    [`${prefix}Zip`]: textField(20),
    [`${prefix}CountryId`]: textField(10),
  }) as Record<`${P}${AddressPart}`, ReturnType<typeof textField>>;
export const ADDRESS_PARTS = [
  "CompanyName",
  "ContactName",
  "AddressLine1",
  "AddressLine2",
  "City",
  "State",
  "Zip",
  "CountryId",
] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

/**
 * POST /quote/order: multipart, with the purchase-order file as `purchaseOrderFile`. The card
 * fields are read only for 'Online - CC' (with the card rules of the guest payment); email is
 * optional signed in (the receipt goes to the signed-in person otherwise).
 */
export const placeQuoteOrder = endpoint({
  method: "post",
  path: "/quote/order",
  host: "web",
  body: "form",
  request: z.object({
    quoteId: formIdField,
    paymentMethod: z.enum(["Online - CC", "Purchase Order"], { error: QUOTE_ORDER_MESSAGES.paymentMethod }),
    email: z.optional(z.union([z.literal(""), emailField])),
    contactPhone: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(40, QUOTE_ORDER_MESSAGES.contactPhone),
          z.regex(/^$|^\+?[\d\s().-]{7,}(\s*(x|ext\.?)\s*\d{1,6})?$/i, QUOTE_ORDER_MESSAGES.contactPhone),
        ),
    ),
    purchaseOrderNumber: textField(100),
    customerComment: textField(2000),
    cardNumber: z.optional(z.string()),
    cardExpirationMonth: z.optional(z.string()),
    cardExpirationYear: z.optional(z.string()),
    cardCvv: z.optional(z.string()),
    needsShipping: textField(5),
    shippingCarrier: textField(100),
    shippingMethod: textField(100),
    shippingPrice: shownAmountField,
    tax: shownAmountField,
    ...addressFields("shippingAddress"),
    ...addressFields("billingAddress"),
    idempotencyKey: idempotencyKeyField,
  }),
  response: z.object({ orderId: z.int() }),
  summary:
    "Orders a quote of the active subscription by card or on terms (purchase-order file); shipping, tax and totals recomputed; one order per idempotency key.",
});

/** POST /order/pay-amount-due: the guest payment's fields, the order named by `orderCrmId` (its id). */
export const payOrderAmountDue = endpoint({
  method: "post",
  path: "/order/pay-amount-due",
  host: "web",
  body: "form",
  request: z.extend(payOrderAsGuest.request, {
    orderCrmId: formIdField,
    email: z.optional(z.union([z.literal(""), emailField])),
  }),
  response: payOrderAsGuest.response,
  summary: "Pays an order's whole balance by card, signed in; one charge per idempotency key.",
});
