import { useStore } from "@nanostores/react";
import type { FormEvent } from "react";
import { fieldError, generalErrors } from "../../../src/api/errors.ts";
import { regionsOf, type AddressDraft, type DraftField } from "../../../src/domain/address.ts";
import { $countries } from "../../../src/stores/countries.ts";
import {
  $addressDialog,
  $canSaveAddress,
  closeAddressDialog,
  editAddress,
  saveAddress,
} from "../../../src/stores/quoteAddress.ts";
import { $quoteOrder } from "../../../src/stores/quoteOrder.ts";
import { SelectField } from "../../payments/SelectField.tsx";
import { Dialog, DialogActions } from "../../ui/Dialog.tsx";
import { Field, FormErrors } from "../../ui/Field.tsx";
import { Form } from "../../ui/Form.tsx";
import { EDIT_BUTTON } from "./EditableAddresses.tsx";
import { ShippingOptions } from "./ShippingOptions.tsx";
import { useFocusAfterClose } from "./useFocusAfterClose.ts";

const TITLE = { shipping: "Shipping Address", billing: "Billing Address" } as const;
/** The rate service's field names beside the form's. */
const SERVER_FIELDS = ["line1", "city", "zip", "country"];

/**
 * The Shipping/Billing Address dialog (spec section 2, Dialogs; fields of section 3). Closed,
 * it gives the focus back to its opener, else (opened from the verify dialog, or from a
 * Confirm Shipping button that a chosen option removed) to its address's Edit button.
 */
export function AddressDialog() {
  const dialog = useStore($addressDialog);
  const kind = dialog.kind;
  useFocusAfterClose(kind && EDIT_BUTTON[kind]);
  return (
    <Dialog title={kind ? TITLE[kind] : "Address"} open={kind !== null} onClose={closeAddressDialog}>
      {kind && <AddressForm />}
    </Dialog>
  );
}

function AddressForm() {
  const dialog = useStore($addressDialog);
  const canSave = useStore($canSaveAddress);
  const ships = useStore($quoteOrder).quote?.needsShipping ?? false;
  const { draft, errors } = dialog;
  const text = (label: string, field: DraftField, error?: string, autoComplete?: string) => (
    <Field
      label={label}
      name={field}
      value={draft[field]}
      autoComplete={autoComplete}
      onChange={(e) => editAddress({ [field]: e.currentTarget.value } as Partial<AddressDraft>)}
      error={error}
    />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saveAddress();
  };
  const section = dialog.kind === "shipping" ? "shipping" : "billing";
  return (
    <Form onSubmit={submit} className="address-form">
      {text("Company Name", "companyName", undefined, `${section} organization`)}
      {text("Contact Name", "contactName", undefined, `${section} name`)}
      <CountryField error={fieldError(errors, "country")} />
      {text("Address Line 1", "line1", fieldError(errors, "line1"), `${section} address-line1`)}
      {text("Address Line 2", "line2", undefined, `${section} address-line2`)}
      <div className="field-pair">
        <div>{text("City", "city", fieldError(errors, "city"), `${section} address-level2`)}</div>
        <div>
          <StateField />
        </div>
      </div>
      {text("Zip", "zipCode", fieldError(errors, "zip"), `${section} postal-code`)}
      {dialog.kind === "shipping" && ships && <ShippingOptions />}
      <FormErrors messages={generalErrors(errors, SERVER_FIELDS)} />
      <DialogActions onClose={closeAddressDialog}>
        <button type="submit" disabled={!canSave}>
          Save Address
        </button>
      </DialogActions>
    </Form>
  );
}

/** The country list (crmId 0 left out); choosing another clears state and city. */
function CountryField({ error }: { error: string | undefined }) {
  const countries = useStore($countries).filter((c) => c.crmId !== 0);
  const { draft } = useStore($addressDialog);
  const options = [
    ["", "Choose a country"] as const,
    ...countries.map((c) => [String(c.id), c.name] as const),
  ];
  return (
    <SelectField
      label="Country"
      name="countryId"
      options={options}
      value={draft.countryId === null ? "" : String(draft.countryId)}
      onChange={(e) =>
        editAddress({ countryId: e.currentTarget.value ? Number(e.currentTarget.value) : null })
      }
      error={error}
    />
  );
}

/** State: a dropdown for the US and Canada, free text elsewhere. */
function StateField() {
  const { draft } = useStore($addressDialog);
  const regions = regionsOf(draft.countryId);
  if (!regions)
    return (
      <Field
        label="State"
        name="state"
        value={draft.state}
        autoComplete="address-level1"
        onChange={(e) => editAddress({ state: e.currentTarget.value })}
      />
    );
  // A stored state outside the list (typed before) stays choosable rather than vanishing.
  const known = draft.state === "" || regions.some(([code]) => code === draft.state);
  const options = [
    ["", "Choose a state"] as const,
    ...(known ? [] : [[draft.state, draft.state] as const]),
    ...regions.map(([code, name]) => [code, name] as const),
  ];
  return (
    <SelectField
      label="State"
      name="state"
      autoComplete="address-level1"
      options={options}
      value={draft.state}
      onChange={(e) => editAddress({ state: e.currentTarget.value })}
    />
  );
}
