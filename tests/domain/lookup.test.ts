import { describe, expect, test } from "vitest";
import {
  ENTER_CONTACT,
  ENTER_NUMBER,
  lookupPath,
  missingLookupFields,
  normalizeContact,
  normalizeRecordNumber,
} from "../../src/domain/lookup.ts";

describe("lookup rules", () => {
  test.each([
    ["ORD-5004", "ORD-5004"],
    ["ord 5004", "ORD-5004"],
    ["ORD5004", "ORD-5004"],
    [" ord #5004 ", "ORD-5004"],
    ["quo: 1001", "QUO-1001"],
    ["Quo_1001", "QUO-1001"],
    ["5004", "5004"],
    ["ORD-5004-extra", "ORD-5004-extra"],
  ])("reads the number %j as %j", (typed, read) => {
    expect(normalizeRecordNumber(typed)).toBe(read);
  });

  test.each([
    ["", "", ["id", "contact"]],
    ["  ", "Dana", ["id"]],
    ["ORD-5004", " ", ["contact"]],
    ["ORD-5004", "Dana", []],
  ])("asks for the empty fields of %j / %j: %j", (id, contact, fields) => {
    const missing = missingLookupFields(id, contact);
    expect(missing.map((m) => m.field)).toEqual(fields);
    for (const m of missing) expect(m.message).toBe(m.field === "id" ? ENTER_NUMBER : ENTER_CONTACT);
  });

  test("compares contact names without case, extra spaces or width variants", () => {
    expect(normalizeContact("  Dana   WHITFIELD ")).toBe(normalizeContact("dana whitfield"));
    expect(normalizeContact("Ｄａｎａ")).toBe("dana");
  });

  test("opens an identifier containing 'ord' in any case as an order, anything else as a quote", () => {
    expect(lookupPath("ORD-5003-abc")).toBe("/p/order/ORD-5003-abc");
    expect(lookupPath("xOrDy")).toBe("/p/order/xOrDy");
    expect(lookupPath("9f86d081884c7d659a2feaa0c55ad015")).toBe("/p/quote/9f86d081884c7d659a2feaa0c55ad015");
  });
});
