import { computed, map } from "nanostores";
import type { AccountQuote } from "../api/accountOrders.ts";
import { getQuoteTax, type ShippingOption } from "../api/quoteOrder.ts";
import { draftOf, type AddressDraft } from "../domain/address.ts";
import { cents, epochSeconds } from "../domain/brand.ts";
import { formatMoney } from "../domain/money.ts";
import { quoteStatusLabel } from "../domain/quote.ts";
import { $countries, loadCountries } from "./countries.ts";
import type { FormState } from "./formTask.ts";
import { RECORD_LOAD_FAILED } from "./accountOrders.ts";
import { newAttemptKey, NOT_PAYABLE } from "./guestPay.ts";
import { call } from "./http.ts";
import { sessionMay } from "./tags.ts";
import { $placedOrder, $quotePaymentDone } from "./quotePlaced.ts";

export {
  $placedOrder,
  $quotePaymentDone,
  closeQuotePaymentDone,
  orderOfQuote,
  orderPagePath,
  placedMessage,
  receiptOf,
  type PlacedOrder,
} from "./quotePlaced.ts";

/*
 * Ordering an open quote signed in (spec sections 2 and 4, the signed-in quote page): the
 * addresses as edited, the chosen shipping option, the server's tax for them, the totals
 * they make, and the order by card or on terms. The server prices the order again and
 * refuses a shipping price or tax that is not its own.
 */

export type PaymentMethod = "Online - CC" | "Purchase Order";

export interface QuoteOrderState {
  /** The quote being ordered; null until an open quote's page opens. */
  quote: AccountQuote | null;
  shipping: AddressDraft | null;
  billing: AddressDraft | null;
  /** The chosen shipping option; null until one is chosen (none needed when nothing ships). */
  option: ShippingOption | null;
  /** The server's tax for the addresses and option; null while unknown. */
  tax: number | null;
  /** The page's dismissible banner (a tax call failed). */
  banner: string | null;
  /** A polite line saying the shipping price is not the one quoted or shown before, and why. */
  shippingNote: string | null;
}

export const $quoteOrder = map<QuoteOrderState>({
  quote: null,
  shipping: null,
  billing: null,
  option: null,
  tax: null,
  banner: null,
  shippingNote: null,
});

/** The payment form: its fields beyond the card, the chosen file, busy, errors and the attempt's key. */
export const $orderForm = map<
  FormState & {
    method: PaymentMethod;
    contactPhone: string;
    purchaseOrderNumber: string;
    customerComment: string;
    file: File | null;
    key: string;
    /** The first card expiry year offered (this year). */
    year: number;
  }
>({
  busy: false,
  errors: [],
  method: "Online - CC",
  contactPhone: "",
  purchaseOrderNumber: "",
  customerComment: "",
  file: null,
  key: "",
  year: 0,
});

/** What the page offers for a quote: the payment form and edits, a reason there is none, or nothing (closed). */
export type OrderOffer = { kind: "order" } | { kind: "reason"; message: string } | { kind: "none" };

/** Closed quotes and people without the 'quote.pay' action (a Viewer) get no form and no edit. */
export function orderOffer(quote: AccountQuote, mayPay: boolean): OrderOffer {
  if (!quote.isOpen || !mayPay) return { kind: "none" };
  if (quote.payable) return { kind: "order" };
  const expired = quote.expiresAt !== null && quote.expiresAt * 1000 <= Date.now();
  return { kind: "reason", message: expired ? NOT_PAYABLE.quoteExpired : NOT_PAYABLE.quote };
}

/**
 * The quote's Status on its page: the spec's 'Expires at {date}' or 'Closed' (a past date
 * too; the payment card then says the quote has expired), and 'Closed' at once for a quote
 * ordered from this page.
 */
export function quoteStatusText(quote: AccountQuote, zone: string, placed: boolean): string {
  if (placed) return "Closed";
  const expiresAt = quote.expiresAt === null ? null : epochSeconds(quote.expiresAt);
  return quoteStatusLabel({ status: quote.status, expiresAt }, zone);
}

/** The totals as the order would be placed: the chosen shipping and the server's tax, else the quote's own. */
export const $orderTotals = computed($quoteOrder, ({ quote, option, tax }) => {
  if (!quote) return null;
  const shipping = option ? option.priceCents : quote.shippingCostCents;
  const taxed = tax ?? quote.taxCents;
  return {
    subtotal: quote.subtotalCents,
    tax: taxed,
    shipping,
    shippingName: shippingNameOf(quote, option),
    grandTotal: quote.subtotalCents + shipping + taxed,
  };
});

/** The shipping method the shipping amount is for: the chosen option, else the quote's own. */
function shippingNameOf(quote: AccountQuote, option: ShippingOption | null): string | null {
  return option ? option.name : quote.shippingDetailsString || null;
}

/** The Totals row label of the shipping amount: 'Shipping (UPS Ground)', or plain 'Shipping'. */
export const shippingLabel = (name: string | null) => (name ? `Shipping (${name})` : "Shipping");

/**
 * Says so when the shipping price is no longer the one the page showed: after Confirm Address
 * (today's rate for the quote's own method) or after a new address or option. Nothing when
 * the price stays.
 */
export function noteShippingChange(
  from: number,
  option: ShippingOption,
  why: "confirmed" | "address" | "option",
) {
  const s = $quoteOrder.get();
  if (!s.quote || from === option.priceCents) return;
  const money = (amount: number) => formatMoney(cents(amount), s.quote!.currency);
  const tail = {
    confirmed: " at today's rate for this address",
    address: " for the new address",
    option: "",
  }[why];
  $quoteOrder.setKey(
    "shippingNote",
    `Shipping changed from ${money(from)} to ${money(option.priceCents)} (${option.name})${tail}.`,
  );
}

/** Can the order be sent: a shipping option chosen (when something ships) and the tax known. */
export const $readyToPay = computed(
  $quoteOrder,
  ({ quote, option, tax }) => quote !== null && tax !== null && (!quote.needsShipping || option !== null),
);

/** A country id's ISO code, from the country list (else the code the quote's address carried). */
export function countryCodeOf(countryId: number | null, fallback?: { id: number; code: string } | null) {
  if (countryId === null) return "";
  const listed = $countries.get().find((c) => c.id === countryId);
  return listed?.code ?? (fallback?.id === countryId ? fallback.code : "");
}

/** Where the goods are taxed: the shipping address, else the billing one. */
function taxPlace(
  s: QuoteOrderState,
): { draft: AddressDraft; fallback: { id: number; code: string } | null } | null {
  const quote = s.quote;
  if (s.shipping) return { draft: s.shipping, fallback: quote?.shippingAddress?.country ?? null };
  if (s.billing) return { draft: s.billing, fallback: quote?.billingAddress?.country ?? null };
  return null;
}

let askedTax = 0;
/** Asks the server for the tax of the current addresses and option (POST /quote/tax); the last ask wins. */
export async function refreshTax() {
  const s = $quoteOrder.get();
  if (!s.quote) return;
  const ask = ++askedTax;
  $quoteOrder.setKey("tax", null);
  const place = taxPlace(s);
  try {
    const { taxCents: tax } = await call(getQuoteTax, {
      quoteId: String(s.quote.id),
      shippingMethod: s.option?.serviceName ?? "",
      shippingAmount: s.option?.priceCents ?? 0,
      line1: place?.draft.line1 ?? "",
      line2: place?.draft.line2 ?? "",
      city: place?.draft.city ?? "",
      region: place?.draft.state ?? "",
      countryCode: place ? countryCodeOf(place.draft.countryId, place.fallback) : "",
      postalCode: place?.draft.zipCode ?? "",
    });
    if (ask === askedTax) $quoteOrder.setKey("tax", tax);
  } catch {
    if (ask === askedTax) $quoteOrder.setKey("banner", RECORD_LOAD_FAILED.quote);
  }
}

export function dismissOrderBanner() {
  $quoteOrder.setKey("banner", null);
}

/** Starts ordering a quote the page shows: its stored addresses, no option yet, a fresh form. */
export function openQuoteOrder(quote: AccountQuote) {
  $quoteOrder.set({
    quote,
    shipping: quote.shippingAddress ? draftOf(quote.shippingAddress) : null,
    billing: quote.billingAddress ? draftOf(quote.billingAddress) : null,
    option: null,
    tax: null,
    banner: null,
    shippingNote: null,
  });
  if ($placedOrder.get()?.quoteId !== quote.id) $placedOrder.set(null);
  $quotePaymentDone.set(null);
  $orderForm.set({
    ...$orderForm.get(),
    busy: false,
    errors: [],
    file: null,
    key: newAttemptKey(),
    year: new Date().getFullYear(),
  });
  void loadCountries();
  // Nothing ships: the tax needs no shipping choice.
  if (!quote.needsShipping) void refreshTax();
}

/** May the signed-in person order quotes in the active subscription (the server decides too)? */
export const mayOrderQuotes = () => sessionMay("quote.pay");
