import type { LineItem } from "../../src/api/records.ts";
import { cents } from "../../src/domain/brand.ts";
import { discountText } from "../../src/domain/lineItem.ts";
import { Money } from "../ui/Money.tsx";

/**
 * The line items with their totals (computed by the server with src/domain/lineItem.ts).
 * On a phone each row stacks into labelled lines (data-label), so nothing scrolls sideways.
 */
export function LineItems({ items, currency }: { items: LineItem[]; currency: number }) {
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading">Items</h2>
      <table className="stack-table" aria-labelledby="items-heading">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Description</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
            <th scope="col">Discount</th>
            <th scope="col">Line Total</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            <tr key={i}>
              <th scope="row" data-label="Product">
                {item.productNumber}
              </th>
              <td data-label="Description">{item.description}</td>
              <td data-label="Qty">{item.quantity}</td>
              <td data-label="Price">
                <Money amount={cents(item.listPriceCents)} currency={currency} />
              </td>
              <td data-label="Discount">{discountText(item.discount, currency)}</td>
              <td data-label="Line Total">
                <Money amount={cents(item.lineTotalCents)} currency={currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
