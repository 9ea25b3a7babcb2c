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
    subtotalCents: number;
    taxCents: number;
    shippingAmountCents: number;
    grandTotalCents: number;
    paidCents: number;
    paymentBalanceDueCents: number;
  };
}) {
  return (
    <Totals
      currency={order.currency}
      rows={[
        ["Subtotal", order.subtotalCents],
        ["Tax", order.taxCents],
        ["Shipping", order.shippingAmountCents],
        ["Grand Total", order.grandTotalCents],
        ["Paid", order.paidCents],
        ["Balance Due", order.paymentBalanceDueCents],
      ]}
    />
  );
}
