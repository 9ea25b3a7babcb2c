import { describe, expect, it } from "vitest";
import { changeLines, entryText } from "../../src/domain/auditText.ts";
import { momentText, recordedMoment, withMomentsIn } from "../../src/domain/auditTime.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDateTime } from "../../src/domain/dates.ts";

// 2026-11-29 06:57:12 UTC.
const AT = epochSeconds(1_795_935_432);

describe("moments inside recorded audit values", () => {
  it.each([
    ["2026-11-29T06:57:12.000Z", "expiresAt", AT],
    ["2026-11-29T06:57:12Z", "note", AT],
    ["1795935432", "from", AT],
    // A bare number outside a time field is a count, not a moment.
    ["1795935432", "delaySeconds", null],
    ["2026-11-29", "startDate", null],
    ["Freezer", "name", null],
  ])("reads %s of %s as %s", (text, field, at) => {
    expect(recordedMoment(text, field)).toBe(at);
  });

  it.each([
    ["Europe/Berlin", "November 29, 2026, 7:57 AM"],
    ["America/New_York", "November 29, 2026, 1:57 AM"],
    ["UTC", "November 29, 2026, 6:57 AM"],
    [undefined, "2026-11-29 06:57 UTC"],
  ])("writes the moment in %s as %s", (zone, text) => {
    expect(momentText(AT, zone)).toBe(text);
  });

  it("writes a changed expiry in the viewer's zone, as the page writes the row's own time", () => {
    const lines = changeLines(
      { expiresAt: "2026-11-29T06:57:12.000Z" },
      { expiresAt: "2026-12-01T07:00:00.000Z" },
      "Europe/Berlin",
    );
    expect(lines).toEqual([
      { field: "link expires", from: formatDateTime(AT, "Europe/Berlin"), to: "December 1, 2026, 8:00 AM" },
    ]);
  });

  it("writes moments nested in a value in the viewer's zone", () => {
    const text = entryText("report.update", null, { window: { startDate: "1795935432" } }, "Asia/Tokyo");
    expect(text).toEqual({
      changes: [{ field: "window", from: null, to: "start November 29, 2026, 3:57 PM" }],
    });
  });

  it.each([
    [
      "row 4 had been sealed by 2026-11-29T06:57:02.120Z (anchored)",
      "Europe/Berlin",
      "row 4 had been sealed by November 29, 2026, 7:57 AM (anchored)",
    ],
    [
      "from 2026-11-29T06:57Z to 2026-11-29T07:00:00Z",
      "UTC",
      "from November 29, 2026, 6:57 AM to November 29, 2026, 7:00 AM",
    ],
    ["no time here", "Asia/Tokyo", "no time here"],
  ])("writes the times in %j in %s", (text, zone, written) => {
    expect(withMomentsIn(text, zone)).toBe(written);
  });
});
