import { atom, computed, map } from "nanostores";
import type { FieldError } from "../api/errors.ts";
import { pathOf } from "../api/endpoint.ts";
import { getPaymentReceipt, getPublicOrder, payOrderAsGuest, type OrderDetails } from "../api/orders.ts";
import { getPublicQuote, orderQuoteAsGuest, type QuoteDetail, type QuoteDetails } from "../api/quotes.ts";
import { PAYMENT_IN_PROGRESS } from "../api/payments.ts";
import { getShipmentList, type Shipment } from "../api/shipments.ts";
import {
  CARD_MESSAGES,
  cardDigits,
  cardExpired,
  cardFields,
  PAYMENT_NETWORK_ERROR,
  type CardInput,
} from "../domain/card.ts";
import type { RecordKind } from "../domain/publicRecord.ts";
import { $config, loadConfig } from "./config.ts";
import { loadCountries } from "./countries.ts";
import { type FormState, formTask } from "./formTask.ts";
import { call, errorsOf, RequestFailure } from "./http.ts";
import { go, here } from "./navigate.ts";

/** The page's title: the spec's card title of the public page that leads here. */
export const PAGE_TITLE: Record<RecordKind, string> = { order: "Submit Payment", quote: "Place your Order" };

export const LOAD_FAILED: Record<RecordKind, string> = {
  order: "Unexpected Error retrieving order.",
  quote: "Unexpected Error retrieving quote.",
};

/**
 * The record a pay-as-guest page shows: an order with its shipments (null when their list
 * failed to load), or a quote with its token-only detail.
 */
export type GuestRecord =
  | { kind: "order"; ref: string; order: OrderDetails; shipments: Shipment[] | null }
  | { kind: "quote"; quote: QuoteDetails; detail: QuoteDetail; token: string; orderPath: string | null };

export type GuestPayState =
  | { step: "loading" }
  /** The load failed; `message` is null once the banner is dismissed. */
  | { step: "failed"; message: string | null }
  | { step: "ready"; record: GuestRecord };

/** The page's record, loaded from the id in its address. */
export const $guestPay = atom<GuestPayState>({ step: "loading" });

/** The card form: busy, errors, the key of the attempt it sends next, the first expiry year offered. */
export const $payForm = map<FormState & { key: string; year: number }>({
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
    return order.paymentBalanceDue <= 0 ? NOT_PAYABLE.noBalance : NOT_PAYABLE.order;
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

/**
 * One key per payment attempt (the server charges a key once): 128 random bits. Made with
 * getRandomValues, which, unlike randomUUID, also exists on a page served over plain http.
 */
export function newAttemptKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

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
  const { quoteDetails: quote } = await call(getPublicQuote, undefined, { id });
  // QUO-{n} is a sequential number: it opens the summary only, never the quote to pay.
  if (!quote.detail || !quote.guestToken) throw new Error("The full quote needs its token link.");
  return { kind, quote, detail: quote.detail, token: quote.guestToken, orderPath: null };
}

/** Opens a pay-as-guest page: its record (by the id in the address) and the country list. */
export async function openGuestPay(kind: RecordKind) {
  $guestPay.set({ step: "loading" });
  $paymentDone.set(null);
  $payForm.set({ busy: false, errors: [], key: newAttemptKey(), year: new Date().getFullYear() });
  void loadCountries();
  try {
    $guestPay.set({ step: "ready", record: await loadRecord(kind, lastSegment(here().pathname)) });
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

/** What the browser can tell about a card before sending it: a number, and not expired. */
function cardProblems(card: CardInput): FieldError[] {
  const problems: FieldError[] = [];
  if (cardDigits(card.cardNumber) === "")
    problems.push({ field: "cardNumber", message: CARD_MESSAGES.number });
  if (cardExpired(Number(card.cardExpirationMonth), card.cardExpirationYear % 100, new Date()))
    problems.push({ field: "cardExpirationYear", message: CARD_MESSAGES.expired });
  return problems;
}

/** A payment's receipt PDF, on the web host (kept reachable after Payment Complete closes). */
export function receiptLink(ref: string, paymentId: number): string {
  return $config.get().webBase + pathOf(getPaymentReceipt, { ref, paymentId });
}

export function closePaymentDone() {
  $paymentDone.set(null);
}

/** The HTTP status of a failure the server answered (RequestFailure.status), if known. */
const statusOf = (e: unknown) => (e as { status?: unknown } | null)?.status;

/**
 * A failure as the form shows it. When the server answered, the attempt is over: its errors
 * show and the next submit is a new attempt with a new key. Without an answer (network,
 * timeout) the charge may have happened: the message is the spec's and the key stays, so
 * trying again cannot charge twice.
 */
function paymentFailure(e: unknown): RequestFailure {
  const errors: FieldError[] = errorsOf(e);
  const answered = typeof statusOf(e) === "number" || errors.some((x) => x.field !== null);
  if (!answered) return new RequestFailure([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
  // The same attempt is still at the gateway: its retry must carry the same key.
  if (errors.some((x) => x.message === PAYMENT_IN_PROGRESS)) return new RequestFailure(errors);
  $payForm.setKey("key", newAttemptKey());
  return new RequestFailure(errors);
}

async function payOrder(record: Extract<GuestRecord, { kind: "order" }>, card: CardInput, key: string) {
  const { order } = record;
  const shown = order.paymentBalanceDue;
  const paid = await call(
    payOrderAsGuest,
    { ...cardFields(card), balanceDue: shown, paymentAmount: shown, idempotencyKey: key },
    { ref: record.ref },
  );
  const payment = {
    id: paid.paymentId,
    createdAt: Math.floor(Date.now() / 1000),
    amount: paid.amount,
    method: "Online - CC",
    cardBrand: paid.cardBrand,
    cardLast4: paid.cardLast4,
  };
  const updated: OrderDetails = {
    ...order,
    billingStatus: paid.billingStatus,
    paymentBalanceDue: paid.paymentBalanceDue,
    paid: order.paid + paid.amount,
    payable: paid.paymentBalanceDue > 0 && paid.billingStatus === "Open",
    payments: [...order.payments, payment],
  };
  $guestPay.set({ step: "ready", record: { ...record, order: updated } });
  $payForm.setKey("key", newAttemptKey());
  const { webBase } = await loadConfig();
  const { amount, currency, cardBrand, cardLast4 } = paid;
  const receiptHref = webBase + paid.receiptPath;
  $paymentDone.set({ amount, currency, cardBrand, cardLast4, receiptHref, email: card.email });
}

async function orderQuote(record: Extract<GuestRecord, { kind: "quote" }>, card: CardInput, key: string) {
  const fields = { ...cardFields(card), grandTotal: record.detail.grandTotal, idempotencyKey: key };
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
  // The spec's defaults (01, this year) are a past month most of the year: say so at once,
  // without a round trip on a slow link (the gateway checks again).
  const problems = cardProblems(card);
  if (problems.length) {
    $payForm.set({ ...$payForm.get(), errors: problems });
    return;
  }
  await formTask($payForm, async () => {
    const { key } = $payForm.get();
    try {
      await (record.kind === "order" ? payOrder(record, card, key) : orderQuote(record, card, key));
    } catch (e) {
      throw paymentFailure(e);
    }
  });
}
