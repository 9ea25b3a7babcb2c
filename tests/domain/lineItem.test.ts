import { describe, expect, it } from "vitest";
import { cents, lineTotal, subtotal } from "../../src/domain/index.ts";
import { discountText } from "../../src/domain/lineItem.ts";

describe("lineTotal", () => {
  it.each([
    // quantity, list price (cents), discount, total (cents)
    [2, 10000, null, 20000],
    [2, 10000, "10%", 18000],
    [2, 10000, " 12.5 % ", 17500],
    [2, 10000, "$15", 18500],
    [2, 10000, "15", 18500],
    [1, 1000, "$25.00", 0],
    [1, 1000, "150%", 0],
    [3, 333, "", 999],
  ])("is quantity %i times %i minus discount %s = %i", (quantity, price, discount, total) => {
    expect(lineTotal({ quantity, listPrice: cents(price), discount })).toBe(total);
  });

  it("sums line totals into a subtotal", () => {
    const items = [
      { quantity: 1, listPrice: cents(1000), discount: "10%" },
      { quantity: 2, listPrice: cents(500), discount: "$1" },
    ];
    expect(subtotal(items)).toBe(900 + 900);
  });
});

describe("discountText", () => {
  it.each([
    ["10%", undefined, "10%"],
    [" 12.5 % ", undefined, "12.5 %"],
    ["$5", undefined, "$5.00"],
    ["5.5", undefined, "$5.50"],
    ["1200", 2, "€1,200.00"],
    ["", undefined, "-"],
    [null, undefined, "-"],
    ["call us", undefined, "call us"],
  ])("shows %j (currency %s) as %s", (discount, currency, shown) => {
    expect(discountText(discount, currency)).toBe(shown);
  });
});
