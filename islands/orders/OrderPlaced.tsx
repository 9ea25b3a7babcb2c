import { useStore } from "@nanostores/react";
import { useCallback } from "react";
import {
  $quotePaymentDone,
  closeQuotePaymentDone,
  placedMessage,
  type PlacedOrder,
} from "../../src/stores/quotePlaced.ts";
import { PaymentComplete } from "../payments/PaymentComplete.tsx";

/**
 * The order just placed from its quote, on the order's page (where placing it leads, spec
 * section 4): the confirmation takes the focus (the payment form that had it is gone), and a
 * card order's Payment Complete opens over it, so closing that dialog brings the focus back here.
 */
export function OrderPlaced({ placed }: { placed: PlacedOrder }) {
  const done = useStore($quotePaymentDone);
  // Focused as the note is attached, which comes before the dialog's own effect opens it (the
  // note is earlier in the tree): the dialog gives the focus back to what had it then.
  const focusOnce = useCallback((note: HTMLParagraphElement | null) => note?.focus(), []);
  return (
    <section className="order-placed" aria-labelledby="order-placed-heading">
      <h2 id="order-placed-heading">Order Placed</h2>
      <p ref={focusOnce} tabIndex={-1} role="status" className="pay-done">
        {placedMessage(placed)}
      </p>
      <PaymentComplete done={done} onClose={closeQuotePaymentDone} />
    </section>
  );
}
