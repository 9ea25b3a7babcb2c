import { describe, expect, it } from "vitest";
import { flipSign } from "../../src/domain/signedNumber.ts";

describe("flipSign", () => {
  it.each([
    ["5", "-5"],
    ["-5", "5"],
    ["2.5", "-2.5"],
    ["-0.25", "0.25"],
    ["+3", "-3"],
    ["\u22127", "7"],
    [" 12 ", "-12"],
    ["- 4", "4"],
    ["", "-"],
    ["-", ""],
    ["0", "-0"],
  ])("turns %j into %j", (text, flipped) => {
    expect(flipSign(text)).toBe(flipped);
  });
});
