import { useStore } from "@nanostores/react";
import { $countries } from "../../../src/stores/countries.ts";
import { $verifyShipping, confirmShipping, editFromVerify } from "../../../src/stores/quoteAddress.ts";
import { $quoteOrder } from "../../../src/stores/quoteOrder.ts";
import { addressOf } from "../../../src/domain/address.ts";
import { Dialog, DialogActions } from "../../ui/Dialog.tsx";
import { useFocusAfterClose } from "./useFocusAfterClose.ts";

/** The address on one line, as a person reads it back: company, street, city, state and zip, country. */
function oneLine(a: ReturnType<typeof addressOf>): string {
  const place = [a.city, [a.state, a.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [a.companyName, a.contactName, a.line1, a.line2, place, a.country?.name].filter(Boolean).join(" · ");
}

/**
 * While the quote is open, a dialog asks the person to verify where it ships (spec section 2).
 * It opens by itself as the page loads, so nothing had the focus before it: closed (Confirm
 * Address, Close, Escape), it hands the focus to the Payment heading, the next step.
 */
export function VerifyShippingDialog() {
  const open = useStore($verifyShipping);
  useFocusAfterClose(open ? "quote-pay-heading" : null);
  const order = useStore($quoteOrder);
  const countries = useStore($countries);
  const close = () => $verifyShipping.set(false);
  const shown = order.shipping
    ? addressOf(order.shipping, countries, order.quote?.shippingAddress ?? null)
    : null;
  return (
    <Dialog title="Verify Shipping Address" open={open} onClose={close}>
      <p>Please check that this quote ships to the right place before you order it.</p>
      <p className="verify-address">{shown ? oneLine(shown) : "No Address"}</p>
      <DialogActions onClose={close}>
        <button type="button" className="secondary" onClick={editFromVerify}>
          Edit Address
        </button>
        <button type="button" onClick={() => void confirmShipping()} disabled={!shown}>
          Confirm Address
        </button>
      </DialogActions>
    </Dialog>
  );
}
