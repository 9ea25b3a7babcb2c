import { useStore } from "@nanostores/react";
import type { FormEvent } from "react";
import { fieldError } from "../../../src/api/errors.ts";
import { PO_FILE_EXTENSIONS } from "../../../src/domain/card.ts";
import { $orderForm } from "../../../src/stores/quoteOrder.ts";
import { choosePoFile, placeOrder } from "../../../src/stores/quotePlace.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Field } from "../../ui/Field.tsx";
import { Form } from "../../ui/Form.tsx";
import { OrderFields } from "./OrderFields.tsx";

/** The file types a purchase order may come as (spec section 5). */
const ACCEPT = PO_FILE_EXTENSIONS.map((e) => `.${e}`).join(",");

/**
 * Paying on terms: Contact Phone, PO Number and the purchase-order file in one form (Enter in
 * any of them sends it); Pay on Terms waits until a file is chosen.
 */
export function TermsForm({ total }: { total: string }) {
  const form = useStore($orderForm);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void placeOrder(null);
  };
  return (
    <Form onSubmit={submit} aria-label="Pay on Terms" className="terms-form">
      <OrderFields />
      <Field
        label="Purchase Order File"
        name="purchaseOrderFile"
        type="file"
        accept={ACCEPT}
        hint={`${PO_FILE_EXTENSIONS.join(", ")}; the order of ${total} is invoiced.`}
        onChange={(e) => choosePoFile(e.currentTarget.files?.[0] ?? null)}
        error={fieldError(form.errors, "purchaseOrderFile")}
      />
      <BusyButton busy={form.busy} busyLabel="Processing..." disabled={form.file === null}>
        Pay on Terms
      </BusyButton>
    </Form>
  );
}
