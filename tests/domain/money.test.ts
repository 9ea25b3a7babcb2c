import { describe, expect, it } from "vitest";
import { cents, formatMoney, parseAmount } from "../../src/domain/index.ts";

describe("formatMoney", () => {
  it.each([
    [123456, 1, "$1,234.56"],
    [5, 1, "$0.05"],
    [0, 1, "$0.00"],
    [99900, 2, "€999.00"],
    [-250, 1, "-$2.50"],
    [100, 99, "$1.00"],
  ])("shows %i cents in currency %i as %s", (amount, currency, shown) => {
    expect(formatMoney(cents(amount), currency)).toBe(shown);
  });

  it("uses dollars when no currency is given", () => {
    expect(formatMoney(cents(1000))).toBe("$10.00");
  });
});

describe("parseAmount", () => {
  it.each([
    ["12.5", 1250],
    ["$1,200.00", 120000],
    ["abc", null],
    ["1.234", null],
  ])("reads %s as %s cents", (text, expected) => {
    expect(parseAmount(text)).toBe(expected);
  });
});
