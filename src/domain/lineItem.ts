import type { Cents } from "./brand.ts";
import { formatMoney, parseAmount } from "./money.ts";

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

/**
 * A line's discount as the line shows it: a percentage as written ("10%"), an amount as money
 * in the line's currency with two decimals like its price ("$5" → "$5.00"), "-" for none.
 */
export function discountText(discount: string | null, currency?: number): string {
  const text = (discount ?? "").trim();
  if (text === "") return "-";
  if (text.includes("%")) return text;
  const off = parseAmount(text);
  return off === null ? text : formatMoney(off, currency);
}
