import { useStore } from "@nanostores/react";
import { useEffect, useLayoutEffect, useRef } from "react";
import type { AccountOrder } from "../../src/api/accountOrders.ts";
import { generalErrors } from "../../src/api/errors.ts";
import { CARD_FIELDS } from "../../src/api/records.ts";
import { cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";
import {
  $mayPayOrders,
  $orderPayForm,
  $orderPaymentDone,
  $paidOrderId,
  closeOrderPaymentDone,
  dismissOrderPayError,
  openOrderPay,
  payFormShown,
  submitOrderPayment,
} from "../../src/stores/orderPay.ts";
import { CardForm } from "../payments/CardForm.tsx";
import { PaymentComplete } from "../payments/PaymentComplete.tsx";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";

/**
 * "Payment received", placed by the order page beside the payment's facts (status Paid,
 * balance) rather than where the vanished form was at the bottom; it takes the focus before
 * Payment Complete opens, so closing the dialog brings the focus back to it.
 */
export function PaymentReceived({ orderId }: { orderId: number }) {
  const paidOrderId = useStore($paidOrderId);
  const note = useRef<HTMLParagraphElement>(null);
  const paidNow = paidOrderId === orderId;
  useLayoutEffect(() => {
    if (paidNow) note.current?.focus();
  }, [paidNow]);
  if (!paidNow) return null;
  return (
    <p ref={note} tabIndex={-1} className="pay-done" role="status">
      Thank you: your payment was received.
    </p>
  );
}

/** The order page's Pay Balance Due card (spec sections 2 and 4), shown by the spec's rule. */
export function OrderPay({ order }: { order: AccountOrder }) {
  const form = useStore($orderPayForm);
  const done = useStore($orderPaymentDone);
  const paidOrderId = useStore($paidOrderId);
  const mayPay = useStore($mayPayOrders);
  useEffect(() => openOrderPay(order.id), [order.id]);
  const shown = payFormShown(order, paidOrderId, mayPay);
  const general = generalErrors(form.errors, CARD_FIELDS);
  return (
    <>
      {shown && (
        <section className="pay-card" aria-labelledby="order-pay-heading">
          <h2 id="order-pay-heading">Pay Balance Due</h2>
          {general.length > 0 && <ErrorBanner message={general.join(" ")} onDismiss={dismissOrderPayError} />}
          <CardForm
            busy={form.busy}
            errors={form.errors}
            onSubmit={(card) => void submitOrderPayment(order.id, card)}
            askEmail={false}
            submitLabel={`Pay ${formatMoney(cents(order.paymentBalanceDueCents), order.currency)}`}
            currentYear={form.year}
            labelledBy="order-pay-heading"
          />
        </section>
      )}
      <PaymentComplete done={done} onClose={closeOrderPaymentDone} />
    </>
  );
}
