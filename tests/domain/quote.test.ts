import { describe, expect, it } from "vitest";
import {
  epochSeconds,
  isQuoteOpen,
  parseQuoteNumber,
  quoteNumber,
  quoteStatusLabel,
} from "../../src/domain/index.ts";

const EXPIRES = epochSeconds(Date.UTC(2026, 11, 24) / 1000);

describe("quote", () => {
  it.each([
    ["Open", EXPIRES, "Expires at Dec 24, 2026"],
    ["Draft", EXPIRES, "Expires at Dec 24, 2026"],
    ["Closed", EXPIRES, "Closed"],
    ["Open", null, "Closed"],
  ])("labels status %s with expiry %s as %s", (status, expiresAt, label) => {
    expect(quoteStatusLabel({ status, expiresAt })).toBe(label);
  });

  it("treats only Closed as closed", () => {
    expect(isQuoteOpen("Closed")).toBe(false);
    expect(isQuoteOpen("closed")).toBe(true);
    expect(isQuoteOpen(null)).toBe(true);
  });

  it("prefixes quote numbers with QUO- and reads them back", () => {
    expect(quoteNumber(1042)).toBe("QUO-1042");
    expect(parseQuoteNumber("QUO-1042")).toBe(1042);
    expect(parseQuoteNumber("quo-7")).toBe(7);
    expect(parseQuoteNumber("1042")).toBe(1042);
    expect(parseQuoteNumber("ORD-1")).toBeNull();
  });
});
