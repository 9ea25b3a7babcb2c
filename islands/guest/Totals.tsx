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
