import { describe, expect, it } from "vitest";
import { gapSummary } from "../../src/domain/gapSummary.ts";

const h = (hour: number, day = 29) => Date.UTC(2026, 10, day, hour) / 1000;

describe("the chart's no-data bands in words", () => {
  it.each([
    [
      [
        { name: "Incubator – Temperature", gaps: [{ from: h(3), to: h(4) }] },
        { name: "Cold Room", gaps: [] },
      ],
      ["No data: Incubator – Temperature, Nov 29, 2026, 3:00 AM – 4:00 AM"],
    ],
    [
      [
        { name: "A", gaps: [{ from: h(3), to: h(5) }] },
        { name: "B", gaps: [{ from: h(4), to: h(6) }] },
      ],
      ["No data on any channel, Nov 29, 2026, 3:00 AM – 6:00 AM"],
    ],
    [
      [
        { name: "A", gaps: [{ from: h(22, 28), to: h(2) }] },
        { name: "B", gaps: [] },
      ],
      ["No data: A, Nov 28, 2026, 10:00 PM – Nov 29, 2026, 2:00 AM"],
    ],
    [[{ name: "A", gaps: [] }], []],
  ])("says %j as %j", (lines, text) => {
    expect(gapSummary(lines, "UTC")).toEqual(text);
  });
});
