import { sha256 } from "../core/crypto.ts";
import type { OrderRecord } from "../data/orders.ts";
import { orderRecord } from "../data/orders.ts";
import type { AttemptDetails, StoredAnswer } from "../data/paymentAttempts.ts";
import { orderFromQuote, recordOrderPayment } from "../data/payments.ts";
import { quoteRecord, type QuoteRecord } from "../data/quotes.ts";
import type { Deps } from "../deps.ts";
import type { Charge } from "../services/payments.ts";
import { pathOf, type Endpoint, type InputOf, type ResponseOf } from "../../src/api/endpoint.ts";
import { getPaymentReceipt, payOrderAsGuest } from "../../src/api/orders.ts";
import { orderQuoteAsGuest } from "../../src/api/quotes.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { billingStatus, orderPayable, publicOrderRef } from "../../src/domain/order.ts";
import { publicOrderPath } from "../../src/domain/paths.ts";
import { isQuoteOpen, quotePayable } from "../../src/domain/quote.ts";
import { epochSeconds, type Cents } from "../../src/domain/brand.ts";
import { AMOUNT_CHANGED, refusalAnswer, type PaymentPlan } from "./paymentFlow.ts";

/** A transaction handle, named through Deps (this layer does not import db/). */
type Db = Deps["db"];

export const ORDER_NOT_PAYABLE = "This order has no balance to pay.";
export const QUOTE_ORDERED = "This quote has already been ordered.";
export const QUOTE_CLOSED = "This quote is closed.";
export const QUOTE_EXPIRED = "This quote has expired.";
export const QUOTE_EMPTY = "This quote has nothing to pay.";
const ORDER_BUSY = "Another payment of this order is being processed. Reload the page in a moment.";
const QUOTE_BUSY = "This quote is being ordered right now. Reload the page in a moment.";
const HOUR = 3600;

type CardInputOf = InputOf<typeof payOrderAsGuest> | InputOf<typeof orderQuoteAsGuest>;

/** A success answer whose data has the endpoint's response type. */
const success = <E extends Endpoint>(_e: E, data: ResponseOf<E>): StoredAnswer => ({
  status: 200,
  body: { success: true, data },
});

/**
 * What tells two submits of one key apart: the record, the amounts shown, the contact fields
 * and the card's last four and expiry. Never the number or the code.
 */
function fingerprintOf(subject: string, input: CardInputOf, extra: readonly unknown[]): string {
  const card = [input.cardNumber.slice(-4), input.cardExpirationMonth, input.cardExpirationYear];
  return sha256(JSON.stringify([subject, input.email, input.purchaseOrderNumber ?? "", ...card, ...extra]));
}

/** The parts of a plan both kinds share: the key, the card, the limits. */
function common(input: CardInputOf, subject: string, ip: string, extra: readonly unknown[]) {
  const details: AttemptDetails = {
    email: input.email,
    purchaseOrderNumber: input.purchaseOrderNumber || null,
  };
  return {
    key: input.idempotencyKey,
    subject,
    fingerprint: fingerprintOf(subject, input, extra),
    details,
    card: {
      number: input.cardNumber,
      expMonth: input.cardExpirationMonth,
      expYear: input.cardExpirationYear,
      cvv: input.cardCvv,
    },
    limits: [
      { key: `pay-ip:${ip}`, max: 20, windowSeconds: HOUR },
      { key: `pay:${subject}`, max: 10, windowSeconds: HOUR },
    ],
  };
}

/** Paying an order's whole balance: the balance shown must still be the order's. */
export function orderPlan(
  deps: Deps,
  order: OrderRecord,
  input: InputOf<typeof payOrderAsGuest>,
  ip: string,
): PaymentPlan {
  const orderId = order.row.id;
  return {
    ...common(input, `order:${orderId}`, ip, [input.balanceDue, input.paymentAmount]),
    busy: ORDER_BUSY,
    async price() {
      const now = await orderRecord(deps.db, orderId);
      if (!now || !orderPayable({ paymentStatus: now.row.paymentStatus, balanceDue: now.balanceDue }))
        return refusalAnswer(409, ORDER_NOT_PAYABLE);
      if (input.balanceDue !== now.balanceDue || input.paymentAmount !== now.balanceDue)
        return refusalAnswer(409, AMOUNT_CHANGED);
      return { amount: now.balanceDue, currency: now.row.currency };
    },
    record: async (tx: Db, key: string, charge: Charge, details: AttemptDetails) => {
      const at = deps.now();
      const paid = await recordOrderPayment(
        tx,
        { orderId, key, charge, poNumber: details.purchaseOrderNumber },
        at,
      );
      const ref = publicOrderRef(orderId, paid.validationId);
      const answer = success(payOrderAsGuest, {
        paymentId: paid.paymentId,
        currency: charge.currency,
        ...amountsOf(charge.currency, { amount: charge.amount, paymentBalanceDue: paid.balanceDue }),
        cardBrand: charge.brand,
        cardLast4: charge.last4,
        billingStatus: billingStatus(paid.paymentStatus),
        receiptPath: pathOf(getPaymentReceipt, { ref, paymentId: paid.paymentId }),
      });
      const receipt = {
        to: details.email,
        orderId,
        validationId: paid.validationId,
        paymentId: paid.paymentId,
      };
      return { answer, value: { ...receipt, charge, paidAt: at } };
    },
  };
}

/** Why a quote cannot be ordered now, or null. */
export function quoteRefusal(q: QuoteRecord, nowSeconds: number): string | null {
  const facts = {
    status: q.row.status,
    expiresAt: q.row.expiresAt ? epochSeconds(q.row.expiresAt.getTime() / 1000) : null,
    orderId: q.row.orderId,
    grandTotal: q.grandTotal,
  };
  if (quotePayable(facts, nowSeconds)) return null;
  if (facts.orderId !== null) return QUOTE_ORDERED;
  if (!isQuoteOpen(facts.status)) return QUOTE_CLOSED;
  if (facts.grandTotal <= 0) return QUOTE_EMPTY;
  return QUOTE_EXPIRED;
}

/**
 * A signed-in order's own shipping, tax and addresses (routes/quoteOrder.ts): its total is
 * charged instead of the quote's stored one, and its values are written onto the order.
 */
export interface QuoteTerms {
  /** The total to charge, recomputed from the quote as it is now; null when it no longer prices. */
  total(now: QuoteRecord): Promise<Cents | null>;
  /** What else tells two submits of one key apart (addresses, shipping option). */
  facts: readonly unknown[];
  /** Writes the addresses, tax and shipping onto the new order, in the attempt's transaction. */
  apply(tx: Db, orderId: number): Promise<void>;
}

/** Ordering a quote: its grand total shown must still be the quote's; the order is made with the payment. */
export function quotePlan(
  deps: Deps,
  quote: QuoteRecord,
  input: InputOf<typeof orderQuoteAsGuest>,
  ip: string,
  terms?: QuoteTerms,
): PaymentPlan {
  const quoteId = quote.row.id;
  const extra = [
    input.grandTotal,
    input.contactPhone ?? "",
    input.customerComment ?? "",
    ...(terms?.facts ?? []),
  ];
  return {
    ...common(input, `quote:${quoteId}`, ip, extra),
    busy: QUOTE_BUSY,
    async price() {
      const now = await quoteRecord(deps.db, quoteId);
      if (!now) return refusalAnswer(409, QUOTE_CLOSED);
      const refusal = quoteRefusal(now, deps.now().getTime() / 1000);
      if (refusal) return refusalAnswer(409, refusal);
      const total = terms ? await terms.total(now) : now.grandTotal;
      if (total === null || input.grandTotal !== total) return refusalAnswer(409, AMOUNT_CHANGED);
      return { amount: total, currency: now.row.currency };
    },
    record: async (tx: Db, key: string, charge: Charge, details: AttemptDetails) => {
      const at = deps.now();
      const poNumber = details.purchaseOrderNumber;
      const made = await orderFromQuote(tx, { quoteId, key, charge, email: details.email, poNumber }, at);
      // Only another way of ordering (none yet) could close the quote under a pending attempt.
      if (!made) return { answer: refusalAnswer(409, QUOTE_ORDERED), value: null };
      if (terms) await terms.apply(tx, made.orderId);
      const answer = success(orderQuoteAsGuest, {
        orderId: made.orderId,
        orderPath: publicOrderPath(made.orderId, made.validationId),
      });
      return { answer, value: { to: details.email, ...made, charge, paidAt: at } };
    },
  };
}
