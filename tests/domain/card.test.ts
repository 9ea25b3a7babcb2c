import { describe, expect, it } from "vitest";
import { cardDigits, cardExpired, expiredField, luhnValid } from "../../src/domain/card.ts";

describe("card numbers", () => {
  it.each([
    ["4242 4242 4242 4242", "4242424242424242"],
    ["4242-4242-4242-4242", "4242424242424242"],
    [" 4000 0000 0000 0002 ", "4000000000000002"],
  ])("reads %j as its digits", (typed, digits) => {
    expect(cardDigits(typed)).toBe(digits);
  });

  it.each([
    ["4242424242424242", true],
    ["4000000000000002", true],
    ["5555555555554444", true],
    ["378282246310005", true],
    ["4242424242424241", false],
    ["42424242424", false],
    ["42424242424242424242", false],
    ["4242x24242424242", false],
    ["", false],
  ])("checks the Luhn sum of %s: %s", (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });
});

describe("card expiry", () => {
  const NOW = new Date("2026-11-28T12:00:00Z");
  it.each([
    [12, 26, false, "cardExpirationMonth"],
    [11, 26, false, "cardExpirationMonth"],
    [10, 26, true, "cardExpirationMonth"],
    [1, 27, false, "cardExpirationYear"],
    [12, 25, true, "cardExpirationYear"],
  ] as const)(
    "month %i of 20%i has expired: %s (a refusal goes beside %s)",
    (month, year, expired, field) => {
      expect(cardExpired(month, year, NOW)).toBe(expired);
      expect(expiredField(year, NOW)).toBe(field);
    },
  );
});
