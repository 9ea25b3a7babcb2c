import type { MapStore } from "nanostores";
import type { FieldError } from "../api/errors.ts";
import type { OrderDetails, payOrderAsGuest } from "../api/orders.ts";
import type { ResponseOf } from "../api/endpoint.ts";
import { emailField } from "../api/fields.ts";
import { PAYMENT_IN_PROGRESS } from "../api/payments.ts";
import { INVALID_EMAIL } from "../domain/auth.ts";
import { amountsOf } from "../domain/money.ts";
import {
  CARD_MESSAGES,
  cardDigits,
  cardExpired,
  expiredField,
  luhnValid,
  PAYMENT_NETWORK_ERROR,
  type CardInput,
} from "../domain/card.ts";
import type { FormState } from "./formTask.ts";
import { errorsOf, RequestFailure } from "./http.ts";

/*
 * What the guest payment (src/stores/guestPay.ts) and the signed-in balance payment
 * (src/stores/orderPay.ts) share: the attempt key, the browser's own card checks, how a
 * failure ends or keeps an attempt, and the order after a payment.
 */

/** A card form's store: busy, errors, the key of the attempt it sends next, the first expiry year offered. */
export type CardFormState = FormState & { key: string; year: number };

/** What an order's card payment answers (guest and signed-in alike). */
export type PaidAnswer = ResponseOf<typeof payOrderAsGuest>;

/**
 * One key per payment attempt (the server charges a key once): 128 random bits. Made with
 * getRandomValues, which, unlike randomUUID, also exists on a page served over plain http.
 */
export function newAttemptKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh card form: not busy, no errors, a new attempt key, this year first. */
export function resetCardForm($form: MapStore<CardFormState>) {
  $form.set({ busy: false, errors: [], key: newAttemptKey(), year: new Date().getFullYear() });
}

/**
 * Everything the browser can tell about a card before sending it, all at once: a number
 * that passes the checksum, not expired (the spec's defaults, 01 and this year, are a past
 * month most of the year), a 3 or 4 digit code and, where asked, an address. One round trip
 * on a slow link then shows every mistake; the server and the gateway check again.
 */
export function cardProblems(card: CardInput, opts: { email: boolean }, now = new Date()): FieldError[] {
  const problems: FieldError[] = [];
  if (!luhnValid(cardDigits(card.cardNumber)))
    problems.push({ field: "cardNumber", message: CARD_MESSAGES.number });
  const year = card.cardExpirationYear % 100;
  if (cardExpired(Number(card.cardExpirationMonth), year, now))
    problems.push({ field: expiredField(year, now), message: CARD_MESSAGES.expired });
  if (!/^\d{3,4}$/.test(card.cardCvv.trim())) problems.push({ field: "cardCvv", message: CARD_MESSAGES.cvv });
  if (opts.email && !emailField.safeParse(card.email).success)
    problems.push({ field: "email", message: INVALID_EMAIL });
  return problems;
}

/** The HTTP status of a failure the server answered (RequestFailure.status), if known. */
const statusOf = (e: unknown) => (e as { status?: unknown } | null)?.status;

/**
 * A failure as the form shows it. When the server answered, the attempt is over: its errors
 * show and the next submit is a new attempt with a new key. Without an answer (network,
 * timeout) the charge may have happened: the message is the spec's and the key stays, so
 * trying again cannot charge twice.
 */
export function paymentFailure(e: unknown, $form: MapStore<CardFormState>): RequestFailure {
  const errors: FieldError[] = errorsOf(e);
  const answered = typeof statusOf(e) === "number" || errors.some((x) => x.field !== null);
  if (!answered) return new RequestFailure([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
  // The same attempt is still at the gateway: its retry must carry the same key.
  if (errors.some((x) => x.message === PAYMENT_IN_PROGRESS)) return new RequestFailure(errors);
  $form.setKey("key", newAttemptKey());
  return new RequestFailure(errors);
}

/** The order as it stands after a card payment: its new status and balance, the payment listed. */
export function orderAfterPayment<T extends OrderDetails>(order: T, paid: PaidAnswer, nowSeconds: number): T {
  const payment = {
    id: paid.paymentId,
    createdAt: Math.floor(nowSeconds),
    ...amountsOf(paid.currency, { amount: paid.amountCents }),
    method: "Online - CC",
    cardBrand: paid.cardBrand,
    cardLast4: paid.cardLast4,
  };
  return {
    ...order,
    billingStatus: paid.billingStatus,
    ...amountsOf(order.currency, {
      paymentBalanceDue: paid.paymentBalanceDueCents,
      paid: order.paidCents + paid.amountCents,
    }),
    payable: paid.paymentBalanceDueCents > 0 && paid.billingStatus === "Open",
    payments: [...order.payments, payment],
  };
}
