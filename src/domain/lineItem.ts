import type { Cents } from "./brand.ts";
import { parseAmount } from "./money.ts";

export interface LineItemAmounts {
  quantity: number;
  listPrice: Cents;
  /** "10%" is a percentage; "$5", "5" or "5.50" is a dollar amount off the line. */
  discount: string | null;
}

/** Line total: quantity times price minus the discount; a negative total is shown as zero. */
export function lineTotal(item: LineItemAmounts): Cents {
  const gross = item.quantity * item.listPrice;
  const discount = (item.discount ?? "").trim();
  let net = gross;
  if (discount.includes("%")) {
    const pct = Number(discount.replace(/[%\s]/g, ""));
    if (Number.isFinite(pct)) net = gross - (gross * pct) / 100;
  } else if (discount !== "") {
    const off = parseAmount(discount);
    if (off !== null) net = gross - off;
  }
  return Math.max(0, Math.round(net)) as Cents;
}

/** Sum of line totals, the quote's or order's subtotal. */
export function subtotal(items: readonly LineItemAmounts[]): Cents {
  return items.reduce((sum, item) => sum + lineTotal(item), 0) as Cents;
}
