import { useStore } from "@nanostores/react";
import { fieldError } from "../../../src/api/errors.ts";
import { $orderForm } from "../../../src/stores/quoteOrder.ts";
import { setOrderField } from "../../../src/stores/quotePlace.ts";
import { Field } from "../../ui/Field.tsx";

/** The order's own fields beside the payment: Contact Phone and PO Number (optional for card). */
export function OrderFields() {
  const form = useStore($orderForm);
  return (
    <>
      <Field
        label="Contact Phone (optional)"
        name="contactPhone"
        type="tel"
        autoComplete="tel"
        value={form.contactPhone}
        onChange={(e) => setOrderField("contactPhone", e.currentTarget.value)}
        error={fieldError(form.errors, "contactPhone")}
      />
      <Field
        label={form.method === "Online - CC" ? "PO Number (optional)" : "PO Number"}
        name="purchaseOrderNumber"
        value={form.purchaseOrderNumber}
        onChange={(e) => setOrderField("purchaseOrderNumber", e.currentTarget.value)}
        error={fieldError(form.errors, "purchaseOrderNumber")}
      />
    </>
  );
}
