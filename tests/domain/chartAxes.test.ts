import { describe, expect, it } from "vitest";
import { axisTitles, thresholdMarks, timeAxisLabel, wallClock } from "../../src/domain/chartAxes.ts";

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

describe("thresholdMarks", () => {
  const cold = { key: "cold", kind: "temperature", axis: 0, color: "#1e88e5" };
  const incubator = { key: "incubator", kind: "temperature", axis: 0, color: "#e53935" };
  const humidity = { key: "humidity", kind: "humidity", axis: 1, color: "#43a047" };
  const warm = { name: "Too warm", key: "cold", min: 8, max: null, color: "#ffcdd2" };
  const same = () => (v: number) => v;

  it("draws a range as dashed edges in its line's colour when another line shares the axis", () => {
    expect(thresholdMarks([cold, incubator, humidity], [warm], same)).toEqual({
      bands: [],
      edges: [{ line: 0, name: "Too warm", value: 8, color: "#1e88e5" }],
    });
  });

  it("shades a band when the range applies to every line of the axis", () => {
    expect(thresholdMarks([cold, humidity], [warm], same)).toEqual({
      bands: [{ axis: 0, name: "Too warm", min: 8, max: null, color: "#ffcdd2" }],
      edges: [],
    });
  });

  it("applies a range naming no line to every line: a band on each axis", () => {
    const dry = { name: "Out of range", key: null, min: 10, max: 20, color: "#eee" };
    expect(thresholdMarks([cold, incubator, humidity], [dry], same).bands.map((b) => b.axis)).toEqual([0, 1]);
  });

  it("puts both closed sides of a range on each line it applies to, in that line's values", () => {
    const band = { name: "Ideal", key: "cold", min: 2, max: 8, color: "#c8e6c9" };
    const fahrenheit = (line: number) => (v: number) => (line === 0 ? v * 1.8 + 32 : v);
    expect(thresholdMarks([cold, incubator], [band], fahrenheit).edges.map((e) => e.value)).toEqual([
      35.6, 46.4,
    ]);
  });

  it("draws edges, not a band, on an axis whose lines measure different kinds", () => {
    const all = { name: "Limit", key: null, min: 10, max: null, color: "#eee" };
    const mixed = [cold, { ...humidity, axis: 0 }];
    const fahrenheit = (line: number) => (v: number) => (line === 0 ? v * 1.8 + 32 : v);
    expect(thresholdMarks(mixed, [all], fahrenheit)).toEqual({
      bands: [],
      edges: [
        { line: 0, name: "Limit", value: 50, color: "#1e88e5" },
        { line: 1, name: "Limit", value: 10, color: "#43a047" },
      ],
    });
  });

  it("draws nothing for a range whose line is not in the chart", () => {
    expect(thresholdMarks([incubator], [warm], same)).toEqual({ bands: [], edges: [] });
  });
});

describe("timeAxisLabel", () => {
  const at = (iso: string) => Date.parse(iso);

  it("labels times on the 12-hour clock in the zone, plain-spaced", () => {
    const label = timeAxisLabel("America/New_York");
    expect(label(at("2026-11-22T21:00:00Z"))).toBe("4:00 PM");
    expect(label(at("2026-11-22T17:30:00Z"))).toBe("12:30 PM");
    expect(timeAxisLabel("UTC")(at("2026-11-23T05:00:00Z"))).toBe("5:00 AM");
  });

  it("labels the zone's midnight with its date, and New Year's with its year", () => {
    expect(timeAxisLabel("America/New_York")(at("2026-11-23T05:00:00Z"))).toBe("Nov 23");
    expect(timeAxisLabel("Asia/Kolkata")(at("2026-11-22T18:30:00Z"))).toBe("Nov 23");
    expect(timeAxisLabel("UTC")(at("2027-01-01T00:00:00Z"))).toBe("2027");
  });
});

describe("wallClock", () => {
  it("turns epoch seconds into the zone's wall clock read as UTC, across a DST change", () => {
    const s = (iso: string) => Date.parse(iso) / 1000;
    const ny = wallClock("America/New_York");
    expect(ny(s("2026-11-23T05:00:00Z"))).toBe(Date.UTC(2026, 10, 23, 0, 0));
    expect(ny(s("2026-03-08T06:59:00Z"))).toBe(Date.UTC(2026, 2, 8, 1, 59));
    expect(ny(s("2026-03-08T07:00:00Z"))).toBe(Date.UTC(2026, 2, 8, 3, 0));
    expect(wallClock("Asia/Kolkata")(s("2026-11-22T18:30:00Z"))).toBe(Date.UTC(2026, 10, 23, 0, 0));
    expect(wallClock("No/Such_Zone")(s("2026-11-22T18:30:00Z"))).toBe(Date.UTC(2026, 10, 22, 18, 30));
  });
});
