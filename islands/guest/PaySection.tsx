import { useStore } from "@nanostores/react";
import { useLayoutEffect, useRef } from "react";
import { generalErrors } from "../../src/api/errors.ts";
import { CARD_FIELDS } from "../../src/api/records.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { cents } from "../../src/domain/brand.ts";
import {
  $notPayable,
  $payForm,
  dismissPaymentError,
  type GuestRecord,
  submitPayment,
} from "../../src/stores/guestPay.ts";
import { CardForm } from "../payments/CardForm.tsx";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";

/** What the guest pays: an order's balance or a quote's grand total. */
const amountOf = (record: GuestRecord) =>
  record.kind === "order"
    ? { amount: record.order.paymentBalanceDueCents, currency: record.order.currency }
    : { amount: record.quote.grandTotalCents, currency: record.quote.currency };

/**
 * The payment card: the card form while the record takes a payment, otherwise the reason it
 * does not. When the form goes away (a payment went through) the reason takes the focus,
 * before any dialog opens, so closing the dialog brings the focus back here.
 */
export function PaySection({ record }: { record: GuestRecord }) {
  const form = useStore($payForm);
  const reason = useStore($notPayable);
  const note = useRef<HTMLParagraphElement>(null);
  const hadForm = useRef(reason === null);
  useLayoutEffect(() => {
    if (reason !== null && hadForm.current) note.current?.focus();
    hadForm.current = reason === null;
  }, [reason]);
  const { amount, currency } = amountOf(record);
  const general = generalErrors(form.errors, CARD_FIELDS);
  const placed = record.kind === "quote" ? record.orderPath : null;
  return (
    <section className="pay-card" aria-labelledby="pay-heading">
      <h2 id="pay-heading">Pay by Card</h2>
      {placed ? (
        <p>
          Your order is placed. <a href={placed}>Open your order</a>
        </p>
      ) : reason !== null ? (
        <>
          <p ref={note} tabIndex={-1}>
            {reason}
          </p>
          {record.kind === "order" && (
            <p>
              <a href={`/p/order/${encodeURIComponent(record.ref)}`}>Back to the order</a>
            </p>
          )}
        </>
      ) : (
        <>
          {general.length > 0 && <ErrorBanner message={general.join(" ")} onDismiss={dismissPaymentError} />}
          <CardForm
            busy={form.busy}
            errors={form.errors}
            onSubmit={(card) => void submitPayment(card)}
            askEmail
            submitLabel={`Pay ${formatMoney(cents(amount), currency)}`}
            currentYear={form.year}
            labelledBy="pay-heading"
          />
        </>
      )}
    </section>
  );
}
