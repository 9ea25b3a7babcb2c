import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { generalErrors } from "../../../src/api/errors.ts";
import { cents } from "../../../src/domain/brand.ts";
import { formatMoney } from "../../../src/domain/money.ts";
import { openAddressDialog } from "../../../src/stores/quoteAddress.ts";
import {
  $orderForm,
  $orderTotals,
  $quoteOrder,
  $readyToPay,
  type PaymentMethod,
} from "../../../src/stores/quoteOrder.ts";
import { placeOrder, setOrderField } from "../../../src/stores/quotePlace.ts";
import { CardForm } from "../../payments/CardForm.tsx";
import { FormErrors } from "../../ui/Field.tsx";
import { OrderFields } from "./OrderFields.tsx";
import { TermsForm } from "./TermsForm.tsx";

/** The fields the payment forms show beside them; other messages show under the form. */
const SHOWN_FIELDS = [
  "cardNumber",
  "cardExpirationMonth",
  "cardExpirationYear",
  "cardCvv",
  "contactPhone",
  "purchaseOrderNumber",
  "purchaseOrderFile",
];
const METHODS: readonly (readonly [PaymentMethod, string])[] = [
  ["Online - CC", "Pay by Card"],
  ["Purchase Order", "Pay on Terms"],
];

/** The payment form of an open quote: by card ('Online - CC') or on terms ('Purchase Order'). */
export function PaymentSection() {
  const form = useStore($orderForm);
  const ready = useStore($readyToPay);
  const order = useStore($quoteOrder);
  const totals = useStore($orderTotals);
  const box = useRef<HTMLElement>(null);
  // After an answer, the first field the server objected to takes the focus (in page order:
  // Contact Phone and PO Number come before the card's own fields).
  useEffect(() => {
    if (!form.busy && form.errors.length)
      box.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [form.errors, form.busy]);
  const currency = order.quote?.currency ?? 1;
  const total = formatMoney(cents(totals?.grandTotal ?? 0), currency);
  const byCard = form.method === "Online - CC";
  return (
    <section className="quote-payment" aria-labelledby="quote-pay-heading" ref={box}>
      <h2 id="quote-pay-heading" tabIndex={-1}>
        Payment
      </h2>
      <fieldset className="pay-methods">
        <legend>Payment Method</legend>
        {METHODS.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="paymentMethod"
              value={value}
              checked={form.method === value}
              onChange={() => setOrderField("method", value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {!ready ? (
        <NotReady needsShipping={order.quote?.needsShipping ?? false} hasOption={order.option !== null} />
      ) : byCard ? (
        <CardForm
          busy={form.busy}
          errors={form.errors}
          onSubmit={(card) => void placeOrder(card)}
          askEmail={false}
          submitLabel={`Pay ${total}`}
          currentYear={form.year}
          labelledBy="quote-pay-heading"
        >
          <OrderFields />
        </CardForm>
      ) : (
        <TermsForm total={total} />
      )}
      <FormErrors messages={generalErrors(form.errors, SHOWN_FIELDS)} />
    </section>
  );
}

/** Why the order cannot be sent yet: no shipping option chosen, or the tax still on its way. */
function NotReady({ needsShipping, hasOption }: { needsShipping: boolean; hasOption: boolean }) {
  if (needsShipping && !hasOption)
    return (
      <p className="choose-shipping">
        Confirm the shipping address and its shipping method before you pay: the shipping and tax above are
        the quote's, and today's rates may differ.{" "}
        <button type="button" className="small" onClick={() => openAddressDialog("shipping")}>
          Confirm Shipping
        </button>
      </p>
    );
  return <p aria-busy="true">Getting the tax...</p>;
}
