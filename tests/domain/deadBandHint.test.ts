import { describe, expect, it } from "vitest";
import { deadBandHint } from "../../src/domain/deadBandHint.ts";

const lead = "How far back inside the limit a reading must come before the alarm clears.";

describe("the dead band's hint", () => {
  it.each([
    ["above", "", "", "", "°C", `${lead} E.g. high limit 8°C, dead band 0.5: it clears at 7.5°C or below.`],
    ["above", "", "40", "1", "°F", `${lead} E.g. high limit 40°F, dead band 1: it clears at 39°F or below.`],
    [
      "below",
      "2",
      "",
      "0.3",
      "°C",
      `${lead} E.g. low limit 2°C, dead band 0.3: it clears at 2.3°C or above.`,
    ],
    ["outside", "2", "8", "x", "", `${lead} E.g. high limit 8, dead band 0.5: it clears at 7.5 or below.`],
  ])("for %s low %j high %j band %j reads as typed", (kind, low, high, band, unit, text) => {
    expect(deadBandHint(kind, low, high, band, unit)).toBe(text);
  });
});
