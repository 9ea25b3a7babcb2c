import { describe, expect, it } from "vitest";
import {
  isEmail,
  passwordError,
  PASSWORD_RULE,
  safeNextPath,
  SAML_REFUSALS,
  samlRefusalMessage,
} from "../../src/domain/auth.ts";

describe("sign-in rules", () => {
  it.each([
    ["ada@example.com", true],
    ["a@b.co", true],
    ["", false],
    ["no-at.example.com", false],
    ["two words@example.com", false],
    [`${"a".repeat(250)}@example.com`, false],
    ["ada.o'brien+lab@example.co.uk", true],
    ["x1,ada@example.com", false],
    ["a<ada@example.com>", false],
    ["ada@example.com>", false],
    ['"q"@example.com', false],
    ["g:ada@example.com;", false],
    ["ada@example.com(c1)", false],
    ["ada@[127.0.0.1]", false],
    ["ada\\@example.com", false],
  ])("judges %s as an email address: %s", (text, ok) => {
    expect(isEmail(text)).toBe(ok);
  });

  it("wants passwords of 10 to 200 characters", () => {
    expect(passwordError("123456789")).toBe(PASSWORD_RULE);
    expect(passwordError("1234567890")).toBeNull();
    expect(passwordError("x".repeat(200))).toBeNull();
    expect(passwordError("x".repeat(201))).toBe(PASSWORD_RULE);
  });

  it.each([
    ["/s/settings", "/s/settings"],
    ["/p/order/ORD-1-abc?ref=login", "/p/order/ORD-1-abc?ref=login"],
    [null, "/user/welcome"],
    ["", "/user/welcome"],
    ["https://evil.example/", "/user/welcome"],
    ["//evil.example/", "/user/welcome"],
    ["/\\evil.example", "/user/welcome"],
    ["javascript:alert(1)", "/user/welcome"],
    ["/s/a\u0000b", "/user/welcome"],
    ["/s/a\nb", "/user/welcome"],
  ])("continues after sign-in from next=%s to %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it("shows a federated refusal only for the codes it knows", () => {
    expect(samlRefusalMessage("unverified")).toBe(SAML_REFUSALS.unverified);
    expect(samlRefusalMessage("expired")).toBe(SAML_REFUSALS.expired);
    expect(samlRefusalMessage("toString")).toBeNull();
    expect(samlRefusalMessage("<script>")).toBeNull();
    expect(samlRefusalMessage(null)).toBeNull();
  });
});
