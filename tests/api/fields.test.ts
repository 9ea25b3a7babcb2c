import { describe, expect, test } from "vitest";
import {
  emailField,
  idField,
  isRealIsoMoment,
  ID_RANGE,
  MAX_ID,
  passwordField,
  referrerField,
} from "../../src/api/fields.ts";
import { SettingsPatch } from "../../src/api/session.ts";
import { shownAmountField } from "../../src/api/payments.ts";
import { formIdField } from "../../src/api/quoteOrder.ts";
import { pathOf } from "../../src/api/endpoint.ts";
import { parseReferrer, referrerFor } from "../../src/domain/publicRecord.ts";

describe("shared field schemas", () => {
  test("trims and lower-cases an email address once", () => {
    expect(emailField.parse("  Ada@Example.COM ")).toBe("ada@example.com");
  });

  test.each([[""], ["no-at-sign"], [42]])("refuses %j as an email with the spec's message", (value) => {
    const r = emailField.safeParse(value);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("Invalid email address.");
  });

  test.each([[0], [-1], [1.5], [MAX_ID + 1], ["7"], [Number.NaN]])("refuses %j as an id", (value) => {
    expect(idField.safeParse(value).success).toBe(false);
  });

  test("accepts ids up to the int4 maximum", () => {
    expect(idField.parse(MAX_ID)).toBe(MAX_ID);
  });

  test("needs passwords of 10 to 200 characters", () => {
    expect(passwordField.safeParse("short").success).toBe(false);
    expect(passwordField.safeParse("x".repeat(201)).success).toBe(false);
    expect(passwordField.parse("long enough")).toBe("long enough");
  });

  test("refuses an empty settings patch", () => {
    expect(SettingsPatch.safeParse({}).success).toBe(false);
    expect(SettingsPatch.parse({ temperatureScale: "C" })).toEqual({ temperatureScale: "C" });
  });
});

describe("referrers", () => {
  test("are built and read back by one pair of functions", () => {
    expect(referrerFor("order", 12)).toBe("ord-12");
    expect(parseReferrer("QUO-7")).toEqual({ kind: "quote", id: 7 });
    expect(parseReferrer("inv-7")).toBeNull();
    expect(parseReferrer("ord-2147483648")).toBeNull();
    expect(parseReferrer("ord-0")).toBeNull();
    expect(referrerField.safeParse("ord-12").success).toBe(true);
    expect(referrerField.safeParse("ord-x").success).toBe(false);
  });
});

describe("paths", () => {
  test("fill and encode their parameters", () => {
    expect(pathOf({ path: "/api/v1/tags/:id" }, { id: "a/b" })).toBe("/api/v1/tags/a%2Fb");
    expect(() => pathOf({ path: "/api/v1/tags/:id" })).toThrow(/Missing path parameter id/);
  });
});

describe("a real ISO moment", () => {
  test.each([
    "2026-11-22T12:00:00Z",
    "2026-02-28T23:59:59Z",
    "2028-02-29T00:00Z",
    "2026-11-22",
    "2026-12-31T00:00:00.000+05:30",
  ])("takes %s", (v) => expect(isRealIsoMoment(v)).toBe(true));
  test.each([
    "2026-02-30T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-11-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10",
    "2026-11-22T24:00:00Z",
    "2026-11-22T12:60:00Z",
    "2026-11-22T12:00:60Z",
    "22/11/2026",
    "",
  ])("refuses %s", (v) => expect(isRealIsoMoment(v)).toBe(false));
});

describe("an amount the browser showed", () => {
  test.each([
    ["152425", 152425],
    [" 42 ", 42],
    [0, 0],
    [899, 899],
  ])("reads %j as %s cents", (v, cents) => expect(shownAmountField.parse(v)).toBe(cents));
  test.each(["0x25369", "1.5e5", "", "-1", -1, 1.5, "12.50", "9999999999999999", null])(
    "refuses %j with one message",
    (v) => {
      const result = shownAmountField.safeParse(v);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        "The amount must be a whole number of cents.",
      ]);
    },
  );
});

describe("a record id typed into a form", () => {
  test.each(["abc", "0", "2147483648", ""])("refuses %j with one message", (v) => {
    expect(formIdField.safeParse(v).error?.issues.map((i) => i.message)).toEqual([ID_RANGE]);
  });
});
