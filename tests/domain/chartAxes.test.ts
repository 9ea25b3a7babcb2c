import { describe, expect, it } from "vitest";
import { axisTitles } from "../../src/domain/chartAxes.ts";

describe("axisTitles", () => {
  it("names each axis by the units of its lines, each unit once, in the lines' order", () => {
    const lines = [
      { axis: 0, unit: "°F" },
      { axis: 1, unit: "%RH" },
      { axis: 0, unit: "°F" },
      { axis: 0, unit: "ppm" },
    ];
    expect(axisTitles(lines, [0, 1])).toEqual(["°F / ppm", "%RH"]);
  });

  it("leaves an axis untitled when its lines have no unit", () => {
    expect(axisTitles([{ axis: 0, unit: " " }], [0])).toEqual([""]);
  });

  it("titles only the axes asked for", () => {
    expect(axisTitles([{ axis: 1, unit: "V" }], [0])).toEqual([""]);
  });
});
