import type { Cents } from "./brand.ts";
import { Currency, type CurrencyId } from "./enums.ts";

const SYMBOL: Record<CurrencyId, string> = { [Currency.USD]: "$", [Currency.EUR]: "€" };

/** Formats integer cents as the spec's amount: two decimals, $ by default, € for euros. */
export function formatMoney(amount: Cents, currency: number = Currency.USD): string {
  const symbol = SYMBOL[currency as CurrencyId] ?? "$";
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(Math.round(amount));
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  const frac = String(abs % 100).padStart(2, "0");
  return `${sign}${symbol}${whole}.${frac}`;
}

/** Parses a decimal amount such as "12.5" or "$1,200.00" into cents; null when it is not a number. */
export function parseAmount(text: string): Cents | null {
  const clean = text.replace(/[$€,\s]/g, "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean) * 100) as Cents;
}

/** An amount in the spec's currency units: 152425 cents are 1524.25. */
export const toUnits = (amount: number): number => Math.round(amount) / 100;

/** The fields of amounts as the contracts carry them (src/api/records.ts `amounts`). */
export type Amounts<K extends string> = { [P in K]: number } & { [P in K as `${P}Display`]: string } & {
  [P in K as `${P}Cents`]: Cents;
};

/**
 * Each amount of a record three ways: the spec's `{name}` in currency units, its
 * `{name}Display` (formatMoney) and the portal's `{name}Cents`.
 */
export function amountsOf<const K extends string>(currency: number, values: Record<K, number>): Amounts<K> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values) as [K, number][]) {
    out[name] = toUnits(value);
    out[`${name}Display`] = formatMoney(value as Cents, currency);
    out[`${name}Cents`] = value;
  }
  return out as Amounts<K>;
}
