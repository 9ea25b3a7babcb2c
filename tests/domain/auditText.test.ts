import { describe, expect, it } from "vitest";
import {
  actionName,
  changeLines,
  changesText,
  recordCell,
  recordText,
  valueText,
} from "../../src/domain/auditText.ts";

describe("audit text", () => {
  it.each([
    [null, "(none)"],
    ["", "(none)"],
    ["Freezer", "Freezer"],
    [1.5, "1.5"],
    [false, "false"],
    [[1, 2], "[1,2]"],
    [{ a: 1 }, '{"a":1}'],
  ])("writes the value %j as %s", (v, text) => {
    expect(valueText(v)).toBe(text);
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

  it("lists each changed field with its old and new value", () => {
    expect(changeLines({ name: "A", label: null }, { name: "B", label: "Door" })).toEqual([
      { field: "name", from: "A", to: "B" },
      { field: "label", from: "(none)", to: "Door" },
    ]);
    expect(changeLines(null, { name: "A" })).toEqual([{ field: "name", from: "(none)", to: "A" }]);
    expect(changeLines({ name: "A" }, null)).toEqual([{ field: "name", from: "A", to: "(none)" }]);
    expect(changesText({ name: "A" }, { name: "B" })).toBe("name: A → B");
    expect(changesText(null, null)).toBe("");
  });
});
