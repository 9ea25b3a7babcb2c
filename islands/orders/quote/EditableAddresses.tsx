import { useStore } from "@nanostores/react";
import { addressOf } from "../../../src/domain/address.ts";
import { $countries } from "../../../src/stores/countries.ts";
import { openAddressDialog } from "../../../src/stores/quoteAddress.ts";
import { $quoteOrder } from "../../../src/stores/quoteOrder.ts";
import { AddressCards } from "../../guest/AddressCards.tsx";

/** The Edit buttons' ids: where the focus goes after an address dialog whose opener is gone. */
export const EDIT_BUTTON = { shipping: "edit-shipping-address", billing: "edit-billing-address" } as const;

/**
 * The address cards as the order will be placed (edited or as quoted) and their Edit buttons,
 * laid on the cards' grid so each sits below its own card on a wide screen; each button names
 * its card, so on a phone (one column) the pair below both cards still reads right. Once the
 * order is placed the cards stay as ordered, without the buttons.
 */
export function EditableAddresses({ editable = true }: { editable?: boolean }) {
  const order = useStore($quoteOrder);
  const countries = useStore($countries);
  const detail = order.quote;
  if (!detail) return null;
  const shown = (draft: typeof order.shipping, from: typeof detail.shippingAddress) =>
    draft ? addressOf(draft, countries, from) : null;
  return (
    <div className="editable-addresses">
      <AddressCards
        shipping={shown(order.shipping, detail.shippingAddress)}
        billing={shown(order.billing, detail.billingAddress)}
      />
      {editable && (
        <div className="address-cards address-edits">
          {/* Nothing to ship (a subscription, a data service): no shipping address to change. */}
          {detail.needsShipping ? (
            <button
              type="button"
              id={EDIT_BUTTON.shipping}
              className="secondary small"
              onClick={() => openAddressDialog("shipping")}
            >
              Edit Shipping Address
            </button>
          ) : (
            <span />
          )}
          <button
            type="button"
            id={EDIT_BUTTON.billing}
            className="secondary small"
            onClick={() => openAddressDialog("billing")}
          >
            Edit Billing Address
          </button>
        </div>
      )}
    </div>
  );
}
