import { describe, expect, it } from "vitest";
import {
  actionName,
  datesBackwards,
  changeLines,
  changesText,
  recordCell,
  entryText,
  fieldName,
  recordName,
  recordText,
  valueText,
} from "../../src/domain/auditText.ts";

describe("audit text", () => {
  it.each([
    [null, "", "(none)"],
    ["", "", "(none)"],
    ["Freezer", "", "Freezer"],
    [1.5, "", "1.5"],
    [false, "", "No"],
    [true, "visitorsMaySubscribe", "Yes"],
    [[1, 2], "", "1, 2"],
    [[], "emails", "(none)"],
    [["admin@example.com"], "members", "admin@example.com"],
    [{ a: 1 }, "", "a 1"],
    [
      { type: "above", low: null, high: 0, scale: "C", deadBand: 0.5, graceSeconds: 300 },
      "condition",
      "type above, high 0, scale C, dead band 0.5, grace (seconds) 300",
    ],
    ["00:1A:2B:3C:4D:01_W1A001_1200_0_1", "channelKey", "sensor W1A001 on 00:1A:2B:3C:4D:01"],
    ["00:1A:2B:3C:4D:01_W1A001_1200_0_1_2", "channelKey", "sensor W1A001 on 00:1A:2B:3C:4D:01, channel 2"],
    ["2026-11-29T06:57:12.000Z", "expiresAt", "2026-11-29 06:57 UTC"],
    ["1796108400", "from", "2026-12-01 07:00 UTC"],
    [1250, "amountCents", "$12.50"],
  ])("writes the value %j of %s as %s", (v, field, text) => {
    expect(valueText(v, field)).toBe(text);
  });

  it.each([
    ["visitorsMaySubscribe", "visitors may subscribe"],
    ["termsAccepted", "terms accepted"],
    ["channelKey", "channel"],
    ["quietHours", "quiet hours"],
    ["adjust temperature", "adjust temperature"],
    ["mktActivationEnergy", "MKT activation energy"],
  ])("calls the field %s %s", (field, name) => {
    expect(fieldName(field)).toBe(name);
  });

  it.each([
    ["device.rename", "Renamed a device"],
    ["session.signin.failed", "Failed sign-in"],
    ["something.new", "something.new"],
  ])("calls %s %s", (action, name) => {
    expect(actionName(action)).toBe(name);
  });

  it.each([
    ["report.change", "12", "Report 12"],
    ["report.schedule.sent", "3", "Schedule 3"],
    ["report.link.delete", "12", "Report 12"],
    ["chart.comment.delete", "5", "Comment 5"],
    ["alert.escalate", "9", "Alarm 9"],
    ["alert.rule.change", "4", "Alert rule 4"],
    ["quote.order", "QUO-1001", "QUO-1001"],
    ["order.payment", "ORD-5003", "ORD-5003"],
    ["device.rename", "7", null],
    ["sensor.update", "00:1A:2B:3C:4D:01_W1A001_1200_0", null],
    ["session.signin", "2", null],
    ["report.change", null, null],
  ])("names the record of %s %s as %s", (action, id, text) => {
    expect(recordText(action, id)).toBe(text);
  });

  it.each([
    ["device.rename", 3, "7", "Device 7"],
    ["report.change", 9, "12", "Report 12"],
    ["session.signin", 5, "2", "User 2"],
    ["ops.write", 42, "x1", "x1"],
    ["report.change", null, null, ""],
  ])("writes the CSV's record of %s (type %s, id %s) as %j", (action, type, id, text) => {
    expect(recordCell(action, type, id)).toBe(text);
  });

  it("lists each changed field in words with its old and new value", () => {
    expect(changeLines({ name: "A", label: null }, { name: "B", label: "Door" })).toEqual([
      { field: "name", from: "A", to: "B" },
      { field: "label", from: "(none)", to: "Door" },
    ]);
    expect(changesText({ name: "A" }, { name: "B" })).toBe("name: A → B");
    expect(changesText({ visitorsMaySubscribe: false }, { visitorsMaySubscribe: true })).toBe(
      "visitors may subscribe: No → Yes",
    );
    expect(changesText(null, null)).toBe("");
  });

  it("never lists a field that did not change", () => {
    expect(changeLines({ name: "Cold", paused: false }, { name: "Cold", paused: true })).toEqual([
      { field: "paused", from: "No", to: "Yes" },
    ]);
    expect(changeLines({ deviceId: null, quietHours: null }, { deviceId: null, quietHours: null })).toEqual(
      [],
    );
  });

  it("lists only the values a creation or a deletion has, without a before or after", () => {
    expect(changeLines(null, { name: "A", deviceId: null, quietHours: null, hour: 7 })).toEqual([
      { field: "name", from: null, to: "A" },
      { field: "hour", from: null, to: "7" },
    ]);
    expect(changeLines({ name: "A", tagId: null }, null)).toEqual([{ field: "name", from: "A", to: null }]);
    expect(changesText(null, { hour: 7, scale: "C" })).toBe("hour: 7; scale: C");
  });

  it.each([
    ["audit.export", { timezone: "America/New_York" }, "Filters: none (times in America/New_York)"],
    [
      "audit.export",
      { actor: "ana@example.com", action: "device.rename", deviceId: "5", timezone: "UTC" },
      "Filters: person ana@example.com, action Renamed a device, device 5 (times in UTC)",
    ],
    [
      "report.export",
      { format: "pdf", from: "2026-11-28T00:00:00.000Z", to: "2026-11-29T00:00:00.000Z" },
      "Asked for: format pdf, from 2026-11-28 00:00 UTC, to 2026-11-29 00:00 UTC",
    ],
  ])("shows what %s asked for as a request, not a change", (action, asked, text) => {
    expect(entryText(action, null, asked)).toEqual({ request: text });
    expect(changesText(null, asked, action)).toBe(text);
  });

  it.each([
    ["report.change", "1", { name: "Cold chain" }, "Report: Cold chain"],
    ["report.schedule.change", "3", { name: "Cold chain" }, "Schedule: Cold chain"],
    ["alert.acknowledge", "9", { name: "Cold room too warm" }, "Alarm: Cold room too warm"],
    ["report.change", "1", null, "Report 1"],
    ["device.rename", "7", { name: "Freezer" }, null],
    ["sensor.update", "00:1A:2B:3C:4D:01_W1A001_1200_0", { name: "Cold Room" }, "Sensor: Cold Room"],
  ])("names the record of %s %s by the row's name %j as %s", (action, id, row, text) => {
    expect(recordText(action, id, recordName(null, row))).toBe(text);
  });
});

describe("audit dates", () => {
  it.each([
    ["2026-11-29", "2026-11-01", true],
    ["2026-11-01", "2026-11-29", false],
    ["2026-11-29", "2026-11-29", false],
    ["", "2026-11-01", false],
    ["2026-11-29", "", false],
  ])("from %s to %s is backwards: %s", (from, to, backwards) => {
    expect(datesBackwards(from, to)).toBe(backwards);
  });
});
