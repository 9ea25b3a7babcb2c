import type { OrderDetails } from "../../src/api/orders.ts";
import { cents } from "../../src/domain/brand.ts";
import { Money } from "../ui/Money.tsx";
import { Day } from "./Day.tsx";

type Payment = OrderDetails["payments"][number];

/** How a payment was made: brand and last four digits of a card, never more; else its method. */
const paidWith = (p: Payment) =>
  p.cardLast4 ? `${p.cardBrand ?? "Card"} ending in ${p.cardLast4}` : p.method;

/** The order's previous payments. */
export function PaymentHistory({ payments, currency }: { payments: Payment[]; currency: number }) {
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
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id}>
                <td data-label="Date">
                  <Day at={p.createdAt} />
                </td>
                <td data-label="Amount">
                  <Money amount={cents(p.amount)} currency={currency} />
                </td>
                <td data-label="Paid with">{paidWith(p)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
