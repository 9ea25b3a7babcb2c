import { describe, expect, it } from "vitest";
import { canonical } from "../../src/domain/canonicalJson.ts";

describe("canonical", () => {
  it.each([
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
    [{ a: { d: [3, { z: 1, y: 2 }], c: null } }, '{"a":{"c":null,"d":[3,{"y":2,"z":1}]}}'],
    [{ a: undefined, b: 1 }, '{"b":1}'],
    [new Date("2026-11-30T06:00:00Z"), '"2026-11-30T06:00:00.000Z"'],
    [null, "null"],
    [undefined, "null"],
    ["é\n", '"é\\n"'],
    [[1, "2"], '[1,"2"]'],
  ])("writes %j as %s", (value, text) => {
    expect(canonical(value)).toBe(text);
  });
});
