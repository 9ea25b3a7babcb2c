import type { Cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";

interface Props {
  amount: Cents;
  /** Currency code of the spec (USD=1, EUR=2); dollars when absent. */
  currency?: number | undefined;
}

/** An amount as the spec shows it: two decimals, $ or €. */
export function Money({ amount, currency }: Props) {
  return <span className="money">{formatMoney(amount, currency)}</span>;
}
