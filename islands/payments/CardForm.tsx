import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { fieldError, type FieldError } from "../../src/api/errors.ts";
import { CARD_EXPIRY_MONTHS, cardExpiryYears, type CardInput } from "../../src/domain/card.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Field } from "../ui/Field.tsx";
import { Form } from "../ui/Form.tsx";
import { SelectField } from "./SelectField.tsx";

interface Props {
  busy: boolean;
  /** The server's field errors (cardNumber, cardExpirationMonth, cardExpirationYear, cardCvv, email). */
  errors: readonly FieldError[];
  onSubmit: (card: CardInput) => void;
  /** Public views ask for the address the receipt goes to, and require it. */
  askEmail: boolean;
  /** The pay button, e.g. 'Pay $280.60'. */
  submitLabel: string;
  /** The first expiry year offered (the default); 30 years are offered. */
  currentYear: number;
  /** The id of the heading that names the form. */
  labelledBy: string;
  /** Fields of the page's own that go with the payment (the quote order's phone and PO number). */
  children?: ReactNode;
}

const MONTHS = CARD_EXPIRY_MONTHS.map((m) => [m, m] as const);
const text = (data: FormData, name: string) => String(data.get(name) ?? "");

/** The card payment form of spec section 5; the page's store sends it. */
export function CardForm({
  busy,
  errors,
  onSubmit,
  askEmail,
  submitLabel,
  currentYear,
  labelledBy,
  children,
}: Props) {
  const box = useRef<HTMLDivElement>(null);
  // After an answer, the first field the server objected to takes the focus.
  useEffect(() => {
    if (!busy && errors.length) box.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors, busy]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    onSubmit({
      cardNumber: text(data, "cardNumber"),
      cardExpirationMonth: text(data, "cardExpirationMonth"),
      cardExpirationYear: Number(text(data, "cardExpirationYear")),
      cardCvv: text(data, "cardCvv"),
      email: askEmail ? text(data, "email") : "",
    });
  };
  const years = cardExpiryYears(currentYear).map((y) => [String(y), String(y)] as const);
  return (
    <div ref={box}>
      <Form onSubmit={submit} aria-labelledby={labelledBy} className="card-form">
        {children}
        <Field
          label="Card Number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          spellCheck={false}
          maxLength={23}
          error={fieldError(errors, "cardNumber")}
        />
        <div className="field-pair">
          <SelectField
            label="Expiration Month"
            name="cardExpirationMonth"
            autoComplete="cc-exp-month"
            options={MONTHS}
            defaultValue="01"
            error={fieldError(errors, "cardExpirationMonth")}
          />
          <SelectField
            label="Expiration Year"
            name="cardExpirationYear"
            autoComplete="cc-exp-year"
            options={years}
            defaultValue={String(currentYear)}
            error={fieldError(errors, "cardExpirationYear")}
          />
        </div>
        <Field
          label="CCV"
          name="cardCvv"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          error={fieldError(errors, "cardCvv")}
        />
        {askEmail && (
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            hint="Your receipt is sent to this address."
            error={fieldError(errors, "email")}
          />
        )}
        <BusyButton busy={busy} busyLabel="Processing...">
          {submitLabel}
        </BusyButton>
      </Form>
    </div>
  );
}
