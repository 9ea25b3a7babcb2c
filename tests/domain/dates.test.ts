import { describe, expect, it } from "vitest";
import { epochSeconds, formatDate, formatDateTime, resolveTimezone } from "../../src/domain/index.ts";

// 2026-11-05T15:07:00Z
const AT = epochSeconds(Date.UTC(2026, 10, 5, 15, 7) / 1000);

describe("dates", () => {
  it("formats 'MMM DD, YYYY' with a zero-padded day", () => {
    expect(formatDate(AT)).toBe("Nov 05, 2026");
  });

  it("formats 'MMMM D, YYYY, h:mm A' in a named time zone", () => {
    expect(formatDateTime(AT, "UTC")).toBe("November 5, 2026, 3:07 PM");
    expect(formatDateTime(AT, "America/New_York")).toBe("November 5, 2026, 10:07 AM");
    expect(formatDateTime(AT, "Asia/Tokyo")).toBe("November 6, 2026, 12:07 AM");
  });

  it("shows midnight as 12 AM", () => {
    expect(formatDateTime(epochSeconds(Date.UTC(2026, 0, 1) / 1000))).toBe("January 1, 2026, 12:00 AM");
  });

  it.each([
    ["Europe/Berlin", "Europe/Berlin"],
    ["Mars/Olympus", "UTC"],
    ["", "UTC"],
    [null, "UTC"],
  ])("resolves time zone %s to %s", (zone, expected) => {
    expect(resolveTimezone(zone)).toBe(expected);
  });

  it("falls back to UTC when formatting in an unknown zone", () => {
    expect(formatDate(AT, "Nowhere/Land")).toBe("Nov 05, 2026");
  });
});
