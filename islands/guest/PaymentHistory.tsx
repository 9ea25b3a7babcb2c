import type { OrderDetails } from "../../src/api/orders.ts";
import { cents } from "../../src/domain/brand.ts";
import { Money } from "../ui/Money.tsx";
import { Day } from "./Day.tsx";

type Payment = OrderDetails["payments"][number];

/** How a payment was made: brand and last four digits of a card, never more; else its method. */
const paidWith = (p: Payment) =>
  p.cardLast4 ? `${p.cardBrand ?? "Card"} ending in ${p.cardLast4}` : p.method;

/** The order's previous payments, each with its receipt when `receiptHref` is given. */
export function PaymentHistory({
  payments,
  currency,
  receiptHref,
}: {
  payments: Payment[];
  currency: number;
  receiptHref?: (paymentId: number) => string;
}) {
  return (
    <section aria-labelledby="payments-heading">
      <h2 id="payments-heading">Payments</h2>
      {payments.length === 0 ? (
        <p className="muted">No payments yet.</p>
      ) : (
        <table className="stack-table">
          <caption className="visually-hidden">Previous payments</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Amount</th>
              <th scope="col">Paid with</th>
              {receiptHref && <th scope="col">Receipt</th>}
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id}>
                <td data-label="Date">
                  <Day at={p.createdAt} />
                </td>
                <td data-label="Amount">
                  <Money amount={cents(p.amountCents)} currency={currency} />
                </td>
                <td data-label="Paid with">{paidWith(p)}</td>
                {receiptHref && (
                  <td data-label="Receipt">
                    <a href={receiptHref(p.id)} download>
                      PDF<span className="visually-hidden"> receipt of this payment</span>
                    </a>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
