import { atom, computed, map } from "nanostores";
import { getAccountOrder, type AccountOrder } from "../api/accountOrders.ts";
import { payOrderAmountDue } from "../api/quoteOrder.ts";
import { cardFields, type CardInput } from "../domain/card.ts";
import { $accountOrder } from "./accountOrders.ts";
import {
  type CardFormState,
  cardProblems,
  newAttemptKey,
  orderAfterPayment,
  paymentFailure,
  resetCardForm,
} from "./cardPayment.ts";
import { loadConfig } from "./config.ts";
import { formTask } from "./formTask.ts";
import type { PaymentDone } from "./guestPay.ts";
import { call } from "./http.ts";
import { $session } from "./session.ts";
import { sessionMay } from "./tags.ts";

/*
 * The signed-in order page's payment of its balance (spec sections 2 and 4, POST
 * /order/pay-amount-due): the card form, one idempotency key per attempt (src/stores/
 * cardPayment.ts, shared with the guest payment), the Payment Complete dialog, and the
 * page's order brought up to date afterwards.
 */

/** The card form of the order page. */
export const $orderPayForm = map<CardFormState>({
  busy: false,
  errors: [],
  key: newAttemptKey(),
  year: new Date().getFullYear(),
});

/** What the Payment Complete dialog shows; null while it is closed. */
export const $orderPaymentDone = atom<PaymentDone | null>(null);

/** The order paid during this visit (spec section 4: "no payment just succeeded"), by id. */
export const $paidOrderId = atom<number | null>(null);

/**
 * Spec section 4: the form shows when a balance is due, the order takes payments (not
 * Paid, Cancelled, Closed, Refunded, Hold or Dead: the server's `payable`), no payment just
 * succeeded, and the person's role may pay (a Viewer may not).
 */
export function payFormShown(order: AccountOrder, paidOrderId: number | null, mayPay: boolean): boolean {
  return mayPay && order.payable && order.paymentBalanceDueCents > 0 && paidOrderId !== order.id;
}

/** May the signed-in person pay orders (the server checks `order.pay` too)? */
export const $mayPayOrders = computed($session, () => sessionMay("order.pay"));

let openedOrderId: number | null = null;
/** A fresh form when another order's page opens (and no Payment Complete left over). */
export function openOrderPay(orderId: number) {
  if (orderId === openedOrderId) return;
  openedOrderId = orderId;
  resetCardForm($orderPayForm);
  $orderPaymentDone.set(null);
  $paidOrderId.set(null);
}

/** The page's order, when it is the one paid (a newer page may have replaced it meanwhile). */
function pageOrder(orderId: number): AccountOrder | null {
  const state = $accountOrder.get();
  return state.status === "ready" && state.record.order.id === orderId ? state.record.order : null;
}

function showOrder(order: AccountOrder) {
  const state = $accountOrder.get();
  if (state.status === "ready" && state.record.order.id === order.id)
    $accountOrder.set({ status: "ready", record: { ...state.record, order } });
}

/** Reads the order again after a payment: balance, status and payments as the server has them now. */
async function refreshOrder(orderId: number) {
  try {
    const { orderDetails } = await call(getAccountOrder, undefined, { orderId });
    showOrder(orderDetails);
  } catch {
    // The page already shows the payment's own answer; the next visit reads the rest.
  }
}

async function pay(order: AccountOrder, card: CardInput, key: string) {
  const balance = order.paymentBalanceDueCents;
  const paid = await call(payOrderAmountDue, {
    ...cardFields(card),
    orderCrmId: String(order.id),
    balanceDue: balance,
    paymentAmount: balance,
    idempotencyKey: key,
  });
  $paidOrderId.set(order.id);
  showOrder(orderAfterPayment(order, paid, Date.now() / 1000));
  $orderPayForm.setKey("key", newAttemptKey());
  const { webBase } = await loadConfig();
  const session = $session.get();
  const email = session.status === "signedIn" ? session.info.email : "";
  const { amountCents: amount, currency, cardBrand, cardLast4 } = paid;
  $orderPaymentDone.set({
    amount,
    currency,
    cardBrand,
    cardLast4,
    receiptHref: webBase + paid.receiptPath,
    email,
  });
  void refreshOrder(order.id);
}

/**
 * Pays the page's order's whole balance by card. The amount sent is the one shown; the
 * server charges its own and refuses a stale page. The receipt goes to the signed-in person.
 */
export async function submitOrderPayment(orderId: number, card: CardInput) {
  const order = pageOrder(orderId);
  if (!order) return;
  const problems = cardProblems(card, { email: false });
  if (problems.length) {
    $orderPayForm.setKey("errors", problems);
    return;
  }
  await formTask($orderPayForm, async () => {
    try {
      await pay(order, card, $orderPayForm.get().key);
    } catch (e) {
      throw paymentFailure(e, $orderPayForm);
    }
  });
}

/** Clears the payment's messages that are not beside a field (its banner was dismissed). */
export function dismissOrderPayError() {
  $orderPayForm.setKey(
    "errors",
    $orderPayForm.get().errors.filter((e) => e.field !== null),
  );
}

export function closeOrderPaymentDone() {
  $orderPaymentDone.set(null);
}

/** Spec section 4: Open shows as Paid once a payment succeeded in this visit. */
export function shownBillingStatus(
  order: AccountOrder,
  paidOrderId: number | null,
): AccountOrder["billingStatus"] {
  return order.billingStatus === "Open" && paidOrderId === order.id ? "Paid" : order.billingStatus;
}
