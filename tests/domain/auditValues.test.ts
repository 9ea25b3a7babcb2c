import { describe, expect, it } from "vitest";
import { changes, maskedAddress, withoutCards, withoutSecrets } from "../../src/domain/auditValues.ts";

describe("withoutSecrets", () => {
  it.each([
    [{ password: "x", name: "a" }, { name: "a" }],
    [{ newPassword: "x", currentPassword: "y" }, {}],
    [{ webhookSecret: "s", token: "t", sessionToken: "u" }, {}],
    [{ cvv: "123", cvc: "123", cardNumber: "4242424242424242" }, {}],
    [{ code: "123456", deviceKey: "k", key: "k" }, {}],
    [{ note: "card 4242 4242 4242 4242" }, { note: "card [redacted …4242]" }],
    [{ name: "Freezer GTIN 04012345678901" }, { name: "Freezer GTIN 04012345678901" }],
    [{ nested: { password: "p", ok: 1 } }, { nested: { ok: 1 } }],
    [{ list: [{ token: "t", id: 2 }] }, { list: [{ id: 2 }] }],
    [
      { channelKey: "abc-1", name: "Freezer" },
      { channelKey: "abc-1", name: "Freezer" },
    ],
    [{ text: "a\u0000b" }, { text: "ab" }],
    [
      { text: "x\ud800y", ["k\udc00"]: ["\udbff"] },
      { text: "x\ufffdy", ["k\ufffd"]: ["\ufffd"] },
    ],
  ])("keeps %j as %j", (input, kept) => {
    expect(withoutSecrets(input)).toEqual(kept);
  });
});

describe("withoutCards", () => {
  it.each([
    ["4242424242424242", "[redacted …4242]"],
    ["pay 4000-0566-5566-5556 now", "pay [redacted …5556] now"],
    ["amex 378282246310005", "amex [redacted …0005]"],
    ["two: 4242424242424242, 5555555555554444", "two: [redacted …4242], [redacted …4444]"],
    ["lot 20261130000123", "lot 20261130000123"],
    ["GTIN 04012345678918", "GTIN 04012345678918"],
    ["twelve 424242424242", "twelve 424242424242"],
    ["a longer run 12345678901234567890123", "a longer run 12345678901234567890123"],
    ["no digits", "no digits"],
  ])("makes %j read %j", (text, kept) => {
    expect(withoutCards(text)).toBe(kept);
  });
});

describe("changes", () => {
  it.each([
    [
      { name: "A", loc: "x" },
      { name: "B", loc: "x" },
      { old: { name: "A" }, new: { name: "B" } },
    ],
    [{ name: "A" }, { name: "A" }, null],
    [
      { name: "A", loc: "x" },
      { name: "A", loc: "y" },
      { old: { name: "A", loc: "x" }, new: { name: "A", loc: "y" } },
    ],
    [null, { name: "A" }, { old: null, new: { name: "A" } }],
    [{ name: "A" }, null, { old: { name: "A" }, new: null }],
    [{ tags: [1, 2] }, { tags: [1, 3] }, { old: { tags: [1, 2] }, new: { tags: [1, 3] } }],
    [{ a: 1 }, { a: 1, b: 2 }, { old: { b: null }, new: { b: 2 } }],
    [{ password: "a" }, { password: "b" }, null],
    [{ notify: { a: 1, b: [2] } }, { notify: { b: [2], a: 1 } }, null],
    [
      { name: "Freezer GTIN 04012345678901" },
      { name: "Freezer GTIN 04012345678918" },
      { old: { name: "Freezer GTIN 04012345678901" }, new: { name: "Freezer GTIN 04012345678918" } },
    ],
    [
      { note: "card 4242424242424242" },
      { note: "card 4000056655694242" },
      { old: { note: "card [redacted …4242]" }, new: { note: "card [redacted …4242]" } },
    ],
    [null, null, null],
  ])("of %j and %j is %j", (before, after, expected) => {
    expect(changes(before, after)).toEqual(expected);
  });
});

describe("maskedAddress", () => {
  it.each([
    ["jane@example.com", "j***@example.com"],
    ["j@example.com", "j***@example.com"],
    ["a.b+c@lab.example.org", "a***@lab.example.org"],
    ["@example.com", "***"],
    ["nobody", "***"],
  ])("names %s as %s", (email, masked) => {
    expect(maskedAddress(email)).toBe(masked);
  });
});
