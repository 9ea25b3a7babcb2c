import { ApiError, NOT_FOUND, type FieldError } from "../core/errors.ts";
import { countryList } from "../data/countries.ts";
import { findAttempt } from "../data/paymentAttempts.ts";
import { quoteRecord, type QuoteRecord } from "../data/quotes.ts";
import type { AddressFields, OrderTerms } from "../data/quoteOrders.ts";
import { addressesById } from "../data/records.ts";
import type { Deps } from "../deps.ts";
import type { Auth } from "../data/auth.ts";
import { inSubscription } from "../http/auth.ts";
import type { RateOption } from "../services/shippingRates.ts";
import type { InputOf } from "../../src/api/endpoint.ts";
import { MAX_PAYMENT_CENTS, TOTAL_TOO_LARGE } from "../../src/api/payments.ts";
import { placeQuoteOrder, QUOTE_ORDER_MESSAGES } from "../../src/api/quoteOrder.ts";
import { sameRecipient } from "../../src/domain/address.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";
import { quoteRefusal } from "./paymentPlans.ts";

/*
 * How the server prices a signed-in quote order (flows/quoteOrder.ts): the quote as the
 * caller's subscription may order it, the places it ships to and bills, the rates and tax for
 * them, and the comparison with what the form sent (a difference is refused, never charged).
 */

export type OrderInput = InputOf<typeof placeQuoteOrder>;
export type Prefix = "shippingAddress" | "billingAddress";

/** An address with its country's code, as rates and tax need it. */
export interface Place {
  fields: AddressFields;
  countryCode: string;
}

/** The shipping price, the tax and the total the server computes for an order. */
export interface Priced {
  option: RateOption | null;
  shippingAmount: Cents;
  tax: Cents;
  total: Cents;
}

/** The total quantity of a quote's items (the rate table prices per item). */
export const itemCount = (q: QuoteRecord) => q.lineItems.reduce((n, i) => n + Math.max(0, i.quantity), 0);

/**
 * The quote of the caller's subscription, or 404; refused (409) once it is closed, expired or
 * ordered, unless `key` already has an attempt on it: a retry after the order was placed
 * goes on to get that attempt's answer (or its refusal of other details).
 */
export async function openQuote(deps: Deps, auth: Auth, quoteId: string, key?: string): Promise<QuoteRecord> {
  const quote = await quoteRecord(deps.db, Number(quoteId));
  if (!quote) throw new ApiError(404, NOT_FOUND);
  inSubscription(auth, quote.row);
  const refusal = quoteRefusal(quote, deps.now().getTime() / 1000);
  if (!refusal) return quote;
  const earlier = key ? await findAttempt(deps.db, key) : null;
  if (earlier?.subject !== `quote:${quote.row.id}`) throw new ApiError(409, refusal);
  return quote;
}

/** The country with this ISO code (crmId 0 excluded), or a 400 on `field`. */
export async function countryCode(
  deps: Deps,
  code: string,
  field: string,
): Promise<{ id: number; code: string }> {
  const found = (await countryList(deps.db)).find((k) => k.code === code.toUpperCase());
  if (!found) throw new ApiError(400, [{ field, message: "Choose a country." }]);
  return found;
}

/**
 * The form's address with this prefix, or the quote's stored one when the form left it empty.
 * The form has no Attention or phone field (spec section 7): while the typed address names the
 * stored one's recipient (same company and contact), its attention line and phone carry over,
 * so ordering never drops an "Attn: Receiving" the quote had; else the phone is the contact's.
 */
export async function placeOf(
  deps: Deps,
  input: OrderInput,
  prefix: Prefix,
  stored: number | null,
): Promise<Place | null> {
  const v = (part: string) => String((input as Record<string, unknown>)[`${prefix}${part}`] ?? "").trim();
  const quoted = stored === null ? null : ((await addressesById(deps.db, [stored])).get(stored) ?? null);
  if (["CompanyName", "ContactName", "AddressLine1", "City", "Zip", "CountryId"].every((p) => !v(p))) {
    if (!quoted) return null;
    const { id: _id, country, ...rest } = quoted;
    return { fields: { ...rest, countryId: country?.id ?? null }, countryCode: country?.code ?? "" };
  }
  const country = (await countryList(deps.db)).find((k) => String(k.id) === v("CountryId"));
  if (!country) throw new ApiError(400, [{ field: `${prefix}CountryId`, message: "Choose a country." }]);
  const orNull = (s: string) => s || null;
  const recipient = { companyName: orNull(v("CompanyName")), contactName: orNull(v("ContactName")) };
  const kept = quoted && sameRecipient(quoted, recipient) ? quoted : null;
  return {
    fields: {
      ...recipient,
      attention: kept?.attention ?? null,
      line1: orNull(v("AddressLine1")),
      line2: orNull(v("AddressLine2")),
      city: orNull(v("City")),
      state: orNull(v("State")),
      zipCode: orNull(v("Zip")),
      countryId: country.id,
      phoneNumber: kept?.phoneNumber ?? (input.contactPhone || null),
    },
    countryCode: country.code,
  };
}

/** Rate-service field names to the order form's shipping address fields. */
export const SHIPPING_FIELD: Record<string, string> = {
  line1: "shippingAddressAddressLine1",
  city: "shippingAddressCity",
  zip: "shippingAddressZip",
  country: "shippingAddressCountryId",
};

/** The options for sending the quote to a place, or a 400 with the address's field errors. */
export async function ratesFor(deps: Deps, quote: QuoteRecord, place: Place, rename = (f: string) => f) {
  const answer = await deps.shippingRates.rates(
    {
      line1: place.fields.line1 ?? "",
      city: place.fields.city ?? "",
      state: place.fields.state ?? "",
      countryCode: place.countryCode,
      zip: place.fields.zipCode ?? "",
    },
    itemCount(quote),
  );
  if (!answer.ok)
    throw new ApiError(
      400,
      answer.errors.map((e): FieldError => ({ ...e, field: e.field && rename(e.field) })),
    );
  return answer.options;
}

/**
 * Prices an order: the chosen option's price for the shipping address (the quote's items as
 * they are now), then the tax on goods plus shipping where the goods go. Field errors for
 * an option not offered; `compare` refuses a shipping price or a tax that differs.
 */
export async function priceOrder(
  deps: Deps,
  quote: QuoteRecord,
  places: { shipping: Place | null; billing: Place | null },
  choice: { carrier: string; method: string },
): Promise<Priced> {
  let option: RateOption | null = null;
  if (quote.row.needsShipping) {
    if (!places.shipping)
      throw new ApiError(400, [
        { field: "shippingAddressAddressLine1", message: "Enter the shipping address." },
      ]);
    const options = await ratesFor(deps, quote, places.shipping, (f) => SHIPPING_FIELD[f] ?? f);
    option =
      options.find(
        (o) => !o.isDisabled && o.carrierName === choice.carrier && o.serviceName === choice.method,
      ) ?? null;
    if (!option)
      throw new ApiError(400, [{ field: "shippingMethod", message: QUOTE_ORDER_MESSAGES.shippingMethod }]);
  }
  const shippingAmount = option?.price ?? cents(0);
  const taxedAt = places.shipping ?? places.billing;
  const tax = taxedAt
    ? await deps.tax.taxFor(
        { countryCode: taxedAt.countryCode, region: taxedAt.fields.state ?? "" },
        cents(quote.subtotal + shippingAmount),
      )
    : cents(0);
  const total = cents(quote.subtotal + shippingAmount + tax);
  // The quote fits one payment (the operations API checks it), but this address's tax and
  // shipping may take the order past it: refused, so no order is made that nobody can pay.
  if (!(total <= MAX_PAYMENT_CENTS)) throw new ApiError(400, [{ field: null, message: TOTAL_TOO_LARGE }]);
  return { option, shippingAmount, tax, total };
}

/** Refuses a shipping price or tax the form sent that is not the server's (a tampered or stale form). */
export function compare(priced: Priced, input: OrderInput) {
  const errors: FieldError[] = [];
  if (input.shippingPrice !== priced.shippingAmount)
    errors.push({ field: "shippingPrice", message: QUOTE_ORDER_MESSAGES.shippingPrice });
  if (input.tax !== priced.tax) errors.push({ field: "tax", message: QUOTE_ORDER_MESSAGES.tax });
  if (errors.length) throw new ApiError(400, errors);
}

/** What the order is written with. */
export const termsOf = (
  auth: Auth,
  priced: Priced,
  places: { shipping: Place | null; billing: Place | null },
): OrderTerms => ({
  subscriptionId: auth.subscription.id,
  shipping: places.shipping?.fields ?? null,
  billing: places.billing?.fields ?? null,
  tax: priced.tax,
  shippingAmount: priced.shippingAmount,
  shipCarrier: priced.option?.carrierName ?? null,
  shipMethod: priced.option?.serviceName ?? null,
});
