import { atom, computed, map } from "nanostores";
import { pathOf } from "../api/endpoint.ts";
import { getPaymentReceipt, getPublicOrder, payOrderAsGuest, type OrderDetails } from "../api/orders.ts";
import { fullQuote, getPublicQuote, orderQuoteAsGuest, type FullQuote } from "../api/quotes.ts";
import { getShipmentList, type Shipment } from "../api/shipments.ts";
import { cardFields, type CardInput } from "../domain/card.ts";
import { numberOnlyRecord } from "../domain/numberOnly.ts";
import type { RecordKind } from "../domain/publicRecord.ts";
import {
  type CardFormState,
  cardProblems,
  newAttemptKey,
  orderAfterPayment,
  paymentFailure,
  resetCardForm,
} from "./cardPayment.ts";
import { $config, loadConfig } from "./config.ts";
import { loadCountries } from "./countries.ts";
import { formTask } from "./formTask.ts";
import { call } from "./http.ts";
import { go, here } from "./navigate.ts";

/** The page's title: the spec's card title of the public page that leads here. */
export const PAGE_TITLE: Record<RecordKind, string> = { order: "Submit Payment", quote: "Place your Order" };

export const LOAD_FAILED: Record<RecordKind, string> = {
  order: "Unexpected Error retrieving order.",
  quote: "Unexpected Error retrieving quote.",
};

/**
 * The record a pay-as-guest page shows: an order with its shipments (null when their list
 * failed to load), or a quote with its token-only fields.
 */
export type GuestRecord =
  | { kind: "order"; ref: string; order: OrderDetails; shipments: Shipment[] | null }
  | { kind: "quote"; quote: FullQuote; token: string; orderPath: string | null };

export type GuestPayState =
  | { step: "loading" }
  /** The load failed; `message` is null once the banner is dismissed. */
  | { step: "failed"; message: string | null }
  /** The address carries only the record's number, which never opens its payment page. */
  | { step: "numberOnly"; number: string }
  | { step: "ready"; record: GuestRecord };

/** The page's record, loaded from the id in its address. */
export const $guestPay = atom<GuestPayState>({ step: "loading" });

/** The card form: busy, errors, the key of the attempt it sends next, the first expiry year offered. */
export const $payForm = map<CardFormState>({
  busy: false,
  errors: [],
  key: "",
  year: 0,
});

/** What the Payment Complete dialog shows; null while it is closed. */
export interface PaymentDone {
  amount: number;
  currency: number;
  cardBrand: string;
  cardLast4: string;
  receiptHref: string;
  /** Where the receipt was mailed. */
  email: string;
}
export const $paymentDone = atom<PaymentDone | null>(null);

/** Why a record shows no card form (spec section 4: closed, paid or expired records take no payment). */
export const NOT_PAYABLE = {
  noBalance: "This order has no balance due.",
  order: "This order cannot be paid online.",
  quoteClosed: "This quote is closed.",
  quoteExpired: "This quote has expired.",
  quote: "This quote cannot be paid online.",
} as const;

/** The reason a record takes no payment, or null when the card form shows. */
export function notPayableReason(record: GuestRecord, nowSeconds: number): string | null {
  if (record.kind === "order") {
    const { order } = record;
    if (order.payable) return null;
    return order.paymentBalanceDueCents <= 0 ? NOT_PAYABLE.noBalance : NOT_PAYABLE.order;
  }
  const { quote } = record;
  if (quote.payable) return null;
  if (!quote.isOpen) return NOT_PAYABLE.quoteClosed;
  if (quote.expiresAt !== null && quote.expiresAt <= nowSeconds) return NOT_PAYABLE.quoteExpired;
  return NOT_PAYABLE.quote;
}

/** Why the page's record shows no card form now, or null while it takes a payment. */
export const $notPayable = computed($guestPay, (s) =>
  s.step === "ready" ? notPayableReason(s.record, Date.now() / 1000) : null,
);

/** The attempt key now lives in cardPayment.ts (shared with the signed-in payment); this name stays for importers. */
export { newAttemptKey } from "./cardPayment.ts";

const lastSegment = (path: string) => decodeURIComponent(path.replace(/\/+$/, "").split("/").pop() ?? "");

async function loadRecord(kind: RecordKind, id: string): Promise<GuestRecord> {
  if (kind === "order") {
    const [{ orderDetails }, shipments] = await Promise.all([
      call(getPublicOrder, undefined, { ref: id }),
      call(getShipmentList, undefined, { ref: id }).then(
        (d) => d.shipmentList,
        () => null,
      ),
    ]);
    return { kind, ref: id, order: orderDetails, shipments };
  }
  const { quoteDetails } = await call(getPublicQuote, undefined, { id });
  const quote = fullQuote(quoteDetails);
  // QUO-{n} is a sequential number: it opens the summary only, never the quote to pay.
  if (!quote || !quote.guestToken) throw new Error("The full quote needs its token link.");
  return { kind, quote, token: quote.guestToken, orderPath: null };
}

/** Opens a pay-as-guest page: its record (by the id in the address) and the country list. */
export async function openGuestPay(kind: RecordKind) {
  $guestPay.set({ step: "loading" });
  $paymentDone.set(null);
  resetCardForm($payForm);
  void loadCountries();
  const id = lastSegment(here().pathname);
  const number = numberOnlyRecord(kind, id);
  if (number) return $guestPay.set({ step: "numberOnly", number });
  try {
    $guestPay.set({ step: "ready", record: await loadRecord(kind, id) });
  } catch {
    $guestPay.set({ step: "failed", message: LOAD_FAILED[kind] });
  }
}

export function dismissLoadError() {
  $guestPay.set({ step: "failed", message: null });
}

/** Clears the payment's messages that are not beside a field (its banner was dismissed). */
export function dismissPaymentError() {
  $payForm.setKey(
    "errors",
    $payForm.get().errors.filter((e) => e.field !== null),
  );
}

/** A payment's receipt PDF, on the web host (kept reachable after Payment Complete closes). */
export function receiptLink(ref: string, paymentId: number): string {
  return $config.get().webBase + pathOf(getPaymentReceipt, { ref, paymentId });
}

export function closePaymentDone() {
  $paymentDone.set(null);
}

async function payOrder(record: Extract<GuestRecord, { kind: "order" }>, card: CardInput, key: string) {
  const { order } = record;
  const shown = order.paymentBalanceDueCents;
  const paid = await call(
    payOrderAsGuest,
    { ...cardFields(card), balanceDue: shown, paymentAmount: shown, idempotencyKey: key },
    { ref: record.ref },
  );
  const updated = orderAfterPayment(order, paid, Date.now() / 1000);
  $guestPay.set({ step: "ready", record: { ...record, order: updated } });
  $payForm.setKey("key", newAttemptKey());
  const { webBase } = await loadConfig();
  const { amountCents: amount, currency, cardBrand, cardLast4 } = paid;
  const receiptHref = webBase + paid.receiptPath;
  $paymentDone.set({ amount, currency, cardBrand, cardLast4, receiptHref, email: card.email });
}

async function orderQuote(record: Extract<GuestRecord, { kind: "quote" }>, card: CardInput, key: string) {
  const fields = { ...cardFields(card), grandTotal: record.quote.grandTotalCents, idempotencyKey: key };
  const { orderPath } = await call(orderQuoteAsGuest, fields, { token: record.token });
  $guestPay.set({ step: "ready", record: { ...record, orderPath } });
  go(orderPath);
}

/**
 * Pays the page's record by card: an order's whole balance (then the Payment Complete dialog
 * and the new billing status), or a quote's grand total (then its new order's page). The
 * amounts sent are the ones shown; the server charges its own and refuses a stale page.
 */
export async function submitPayment(card: CardInput) {
  const state = $guestPay.get();
  if (state.step !== "ready") return;
  const { record } = state;
  const problems = cardProblems(card, { email: true });
  if (problems.length) {
    $payForm.set({ ...$payForm.get(), errors: problems });
    return;
  }
  await formTask($payForm, async () => {
    const { key } = $payForm.get();
    try {
      await (record.kind === "order" ? payOrder(record, card, key) : orderQuote(record, card, key));
    } catch (e) {
      throw paymentFailure(e, $payForm);
    }
  });
}
