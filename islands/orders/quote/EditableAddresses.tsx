import { useStore } from "@nanostores/react";
import { addressOf } from "../../../src/domain/address.ts";
import { $countries } from "../../../src/stores/countries.ts";
import { openAddressDialog } from "../../../src/stores/quoteAddress.ts";
import { $quoteOrder } from "../../../src/stores/quoteOrder.ts";
import { AddressCards } from "../../guest/AddressCards.tsx";

/**
 * The address cards as the order will be placed (edited or as quoted) and their Edit buttons,
 * laid on the cards' grid so each sits below its own card on a wide screen; each button names
 * its card, so on a phone (one column) the pair below both cards still reads right.
 */
export function EditableAddresses() {
  const order = useStore($quoteOrder);
  const countries = useStore($countries);
  const detail = order.quote?.detail;
  if (!detail) return null;
  const shown = (draft: typeof order.shipping, from: typeof detail.shippingAddress) =>
    draft ? addressOf(draft, countries, from) : null;
  return (
    <div className="editable-addresses">
      <AddressCards
        shipping={shown(order.shipping, detail.shippingAddress)}
        billing={shown(order.billing, detail.billingAddress)}
      />
      <div className="address-cards address-edits">
        <button type="button" className="secondary small" onClick={() => openAddressDialog("shipping")}>
          Edit Shipping Address
        </button>
        <button type="button" className="secondary small" onClick={() => openAddressDialog("billing")}>
          Edit Billing Address
        </button>
      </div>
    </div>
  );
}
