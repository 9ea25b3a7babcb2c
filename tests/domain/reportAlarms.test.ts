import { describe, expect, it } from "vitest";
import { activeAlarmLines, type ActiveAlarmFacts } from "../../src/domain/reportAlarms.ts";

const at = Date.UTC(2026, 10, 29, 16, 52) / 1000;
const alarm = (over: Partial<ActiveAlarmFacts>): ActiveAlarmFacts => ({
  channelKey: "MAC_W1_1200_0_1",
  device: "Cold Room Base",
  kind: "above",
  triggeredAt: at,
  acknowledgedAt: null,
  clearedAt: null,
  ...over,
});
const names: Record<string, string> = { MAC_W1_1200_0_1: "Cold Room – Temperature" };

describe("active alarm lines on the public report", () => {
  it.each([
    [[alarm({})], ["Alarm on Cold Room – Temperature since Nov 29, 2026, 11:52 AM"]],
    [
      [alarm({ acknowledgedAt: at + 60 })],
      ["Alarm on Cold Room – Temperature since Nov 29, 2026, 11:52 AM (acknowledged)"],
    ],
    [[alarm({ clearedAt: at + 600 })], []],
    [
      [alarm({ channelKey: null, kind: "offline" })],
      ["Alarm on Cold Room Base (not reporting) since Nov 29, 2026, 11:52 AM"],
    ],
    [[alarm({ channelKey: "OTHER_W2_1200_0_1" })], ["Alarm on Cold Room Base since Nov 29, 2026, 11:52 AM"]],
    [
      [alarm({ triggeredAt: at + 3600 }), alarm({ acknowledgedAt: at })],
      [
        "Alarm on Cold Room – Temperature since Nov 29, 2026, 11:52 AM (acknowledged)",
        "Alarm on Cold Room – Temperature since Nov 29, 2026, 12:52 PM",
      ],
    ],
  ])("says %j as %j", (alarms, lines) => {
    expect(activeAlarmLines(alarms, (k) => names[k], "America/New_York")).toEqual(lines);
  });
});
