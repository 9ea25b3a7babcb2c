import { describe, expect, it } from "vitest";
import { cents, lineTotal, subtotal } from "../../src/domain/index.ts";

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
