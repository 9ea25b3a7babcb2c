import { cents } from "../../src/domain/brand.ts";
import { Dialog } from "../ui/Dialog.tsx";
import { Money } from "../ui/Money.tsx";

/** What a successful card payment reports. */
export interface PaymentReceipt {
  amount: number;
  currency: number;
  cardBrand: string;
  cardLast4: string;
  /** The receipt PDF. */
  receiptHref: string;
  /** Where the receipt was mailed, when the form asked for an address. */
  email?: string;
}

/** The Payment Complete dialog (spec section 2, Dialogs): amount, card, the receipt, Close. */
export function PaymentComplete({ done, onClose }: { done: PaymentReceipt | null; onClose: () => void }) {
  return (
    <Dialog
      title="Payment Complete"
      open={done !== null}
      onClose={onClose}
      footer={
        <button type="button" onClick={onClose}>
          Close
        </button>
      }
    >
      {done && (
        <>
          <p>
            Thank you. We received your payment of{" "}
            <Money amount={cents(done.amount)} currency={done.currency} /> with {done.cardBrand} ending in{" "}
            {done.cardLast4}.
          </p>
          {done.email && <p>A receipt is on its way to {done.email}.</p>}
          <p>
            <a href={done.receiptHref} download>
              Download the receipt (PDF)
            </a>
          </p>
        </>
      )}
    </Dialog>
  );
}
