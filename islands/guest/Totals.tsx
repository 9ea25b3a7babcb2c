import { cents } from "../../src/domain/brand.ts";
import { Money } from "../ui/Money.tsx";

/** Subtotal to grand total (and what is due), the last row set apart. */
export function Totals({ rows, currency }: { rows: [label: string, amount: number][]; currency: number }) {
  return (
    <dl className="totals" aria-label="Totals">
      {rows.map(([label, amount]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>
            <Money amount={cents(amount)} currency={currency} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** An order's totals: what it cost, what was paid and what is still due. */
export function OrderTotals({
  order,
}: {
  order: {
    currency: number;
    subtotal: number;
    tax: number;
    shippingAmount: number;
    grandTotal: number;
    paid: number;
    paymentBalanceDue: number;
  };
}) {
  return (
    <Totals
      currency={order.currency}
      rows={[
        ["Subtotal", order.subtotal],
        ["Tax", order.tax],
        ["Shipping", order.shippingAmount],
        ["Grand Total", order.grandTotal],
        ["Paid", order.paid],
        ["Balance Due", order.paymentBalanceDue],
      ]}
    />
  );
}
