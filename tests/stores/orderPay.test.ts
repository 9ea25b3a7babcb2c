import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { getAccountOrder, type AccountOrder } from "../../src/api/accountOrders.ts";
import { PAYMENT_IN_PROGRESS } from "../../src/api/payments.ts";
import { payOrderAmountDue } from "../../src/api/quoteOrder.ts";
import { PAYMENT_NETWORK_ERROR, type CardInput } from "../../src/domain/card.ts";
import { Role } from "../../src/domain/roles.ts";
import { $accountOrder } from "../../src/stores/accountOrders.ts";
import { setNavigation } from "../../src/stores/navigate.ts";
import {
  $mayPayOrders,
  $orderPayForm,
  $orderPaymentDone,
  $paidOrderId,
  openOrderPay,
  payFormShown,
  shownBillingStatus,
  submitOrderPayment,
} from "../../src/stores/orderPay.ts";
import { $session } from "../../src/stores/session.ts";
import { amountsOf } from "../../src/domain/money.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";
import { session } from "./sessions.ts";
import { accountOrder } from "./accountOrderFixture.ts";

const CARD: CardInput = {
  cardNumber: "4242 4242 4242 4242",
  cardExpirationMonth: "12",
  cardExpirationYear: 2040,
  cardCvv: "123",
  email: "",
};
const ORDER: AccountOrder = accountOrder(
  amountsOf(1, { subtotal: 10_000, grandTotal: 10_000, paymentBalanceDue: 10_000 }),
);
const PAID = {
  paymentId: 9,
  currency: 1,
  ...amountsOf(1, { amount: 10_000, paymentBalanceDue: 0 }),
  cardBrand: "Visa",
  cardLast4: "4242",
  billingStatus: "Paid" as const,
  receiptPath: "/order/public/ORD-5001-abc/receipt/9",
};
const DECLINED = { status: 402, errors: [{ field: "cardNumber", message: "Your card was declined." }] };

function signedInAs(roleId: number) {
  const info = session().sessionInformation;
  $session.set({
    status: "signedIn",
    termsAccepted: true,
    info: {
      ...info,
      activeSubscription: { ...info.activeSubscription, role: { id: roleId, name: "", displayName: "" } },
    },
  });
}

let api: ReturnType<typeof fakeApi>;
let orderId = 5001;
beforeEach(() => {
  api = fakeApi();
  fakeNavigation("/s/order/details/5001");
  signedInAs(Role.BILLING);
  // Each test opens an order the store has not seen, so its form starts fresh.
  orderId += 1;
  $accountOrder.set({ status: "ready", record: { order: { ...ORDER, id: orderId }, shipments: [] } });
  openOrderPay(orderId);
});
afterEach(() => setNavigation(null));

const pageOrder = () => {
  const s = $accountOrder.get();
  if (s.status !== "ready") throw new Error("no order");
  return s.record.order;
};

describe("when the balance form shows (spec section 4)", () => {
  test.each([
    ["a payable order with a balance", {}, null, true, true],
    ["an order paid in this visit", {}, "self", true, false],
    ["an order that takes no payment", { payable: false }, null, true, false],
    ["an order with nothing due", amountsOf(1, { paymentBalanceDue: 0 }), null, true, false],
    ["a role that may not pay", {}, null, false, false],
  ] as const)("%s", (_, change, paid, mayPay, shown) => {
    const order = { ...ORDER, ...change };
    expect(payFormShown(order, paid === "self" ? order.id : null, mayPay)).toBe(shown);
  });

  test("lets Administrator, Manager and Billing pay, not a Viewer or Provisioner", () => {
    for (const [role, may] of [
      [Role.ADMINISTRATOR, true],
      [Role.MANAGER, true],
      [Role.BILLING, true],
      [Role.VIEWER, false],
      [Role.PROVISIONER, false],
    ] as const) {
      signedInAs(role);
      expect($mayPayOrders.get(), String(role)).toBe(may);
    }
  });
});

describe("paying the balance", () => {
  test("sends the balance shown with the attempt's key, then shows Paid, the payment and Payment Complete", async () => {
    api.on(payOrderAmountDue, PAID);
    api.on(getAccountOrder, {
      orderDetails: {
        ...ORDER,
        id: orderId,
        billingStatus: "Paid",
        ...amountsOf(1, { paymentBalanceDue: 0 }),
      },
    });
    const key = $orderPayForm.get().key;
    await submitOrderPayment(orderId, CARD);
    expect(api.calls(payOrderAmountDue)[0]?.fields).toEqual({
      cardNumber: "4242 4242 4242 4242",
      cardExpirationMonth: "12",
      cardExpirationYear: "40",
      cardCvv: "123",
      email: "",
      orderCrmId: String(orderId),
      balanceDue: "10000",
      paymentAmount: "10000",
      idempotencyKey: key,
    });
    expect(pageOrder()).toMatchObject({
      billingStatus: "Paid",
      paymentBalanceDueCents: 0,
      paid: 100,
      paidCents: 10_000,
      paidDisplay: "$100.00",
    });
    expect(pageOrder().payments).toHaveLength(1);
    expect($paidOrderId.get()).toBe(orderId);
    expect($orderPaymentDone.get()).toMatchObject({
      amount: 10_000,
      cardLast4: "4242",
      email: "ada@example.com",
    });
    expect($orderPayForm.get().key).not.toBe(key);
    await expect.poll(() => api.calls(getAccountOrder).length).toBe(1);
  });

  test("shows Open as Paid once a payment went through in this visit", () => {
    expect(shownBillingStatus(ORDER, null)).toBe("Open");
    expect(shownBillingStatus(ORDER, ORDER.id)).toBe("Paid");
    expect(shownBillingStatus({ ...ORDER, billingStatus: "Cancelled" }, ORDER.id)).toBe("Cancelled");
  });

  test("starts a new attempt after a refusal, keeps the key when no answer came or the payment is in progress", async () => {
    const first = $orderPayForm.get().key;
    api.on(payOrderAmountDue, () => {
      throw new TypeError("Failed to fetch");
    });
    await submitOrderPayment(orderId, CARD);
    expect($orderPayForm.get().errors).toEqual([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
    expect($orderPayForm.get().key).toBe(first);
    api.on(payOrderAmountDue, { status: 409, errors: [{ field: null, message: PAYMENT_IN_PROGRESS }] });
    await submitOrderPayment(orderId, CARD);
    expect($orderPayForm.get().key).toBe(first);
    api.on(payOrderAmountDue, DECLINED);
    await submitOrderPayment(orderId, CARD);
    expect($orderPayForm.get().errors).toEqual(DECLINED.errors);
    expect($orderPayForm.get().key).not.toBe(first);
    expect(api.calls(payOrderAmountDue).map((c) => c.fields["idempotencyKey"])).toEqual([
      first,
      first,
      first,
    ]);
    expect(pageOrder().billingStatus).toBe("Open");
  });

  test("says an expired card at once, without a call", async () => {
    await submitOrderPayment(orderId, { ...CARD, cardExpirationYear: 2020 });
    expect($orderPayForm.get().errors.map((e) => e.field)).toEqual(["cardExpirationYear"]);
    expect(api.calls(payOrderAmountDue)).toHaveLength(0);
  });
});
