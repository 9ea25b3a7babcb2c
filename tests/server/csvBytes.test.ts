import { describe, expect, it } from "vitest";
import { AsciiOut, cellWriter, isoWriter } from "../../server/data/csvBytes.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const written = (write: (out: AsciiOut) => void) => {
  const out = new AsciiOut(4);
  out.room(64);
  write(out);
  return Buffer.from(out.done()).toString("latin1");
};

describe("CSV lines written as bytes", () => {
  it.each([
    ["America/New_York", "2026-03-08T06:59:00Z"],
    ["America/New_York", "2026-03-08T07:00:00Z"],
    ["America/New_York", "2026-11-01T05:59:59Z"],
    ["America/New_York", "2026-11-01T06:00:00Z"],
    ["Asia/Kathmandu", "2026-01-01T00:00:00Z"],
    ["Australia/Lord_Howe", "2026-04-04T15:00:00Z"],
    ["UTC", "1969-12-31T23:59:59Z"],
    ["UTC", "9999-12-31T23:59:59Z"],
    ["Pacific/Kiritimati", "9999-12-31T23:00:00Z"],
    ["Not/AZone", "2026-07-01T12:00:00Z"],
  ])("writes a time in %s at %s as the zone clock does", (zone, utc) => {
    const write = isoWriter(zone);
    expect(written((out) => write(out, at(utc)))).toBe(zoneClock(zone).iso(at(utc)));
  });

  it("writes cells as the spec rounds them, the same text for the same reading every time", () => {
    const f = cellWriter({ kind: "temperature", adjust: 0.5 }, "F");
    const c = cellWriter({ kind: "temperature", adjust: 0 }, "C");
    const other = cellWriter({ kind: "humidity", adjust: -0.00004 }, "F");
    const cells = [4.2, 4.2, -17.99, -0.004, 37.777].map((v) =>
      [f, c, other].map((w) => written((out) => w(out, v))).join(","),
    );
    expect(cells).toEqual([
      "40.5,4.2,4.2",
      "40.5,4.2,4.2",
      "0.5,-17.99,-17.99",
      "32.9,0,-0.004",
      "100.9,37.78,37.777",
    ]);
  });

  it("grows its buffer when a chunk needs more room", () => {
    const out = new AsciiOut(64);
    for (let i = 0; i < 100; i++) {
      out.room(3);
      out.two(i % 100);
      out.byte(44);
    }
    expect(Buffer.from(out.done()).toString("latin1").split(",")[99]).toBe("99");
  });
});
