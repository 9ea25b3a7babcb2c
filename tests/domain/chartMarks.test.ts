import { describe, expect, it } from "vitest";
import {
  chartMarks,
  MAX_MARKS,
  markTitle,
  type AlarmStory,
  type PinnedComment,
} from "../../src/domain/chartMarks.ts";

const T = 1_795_000_000;
const WINDOW = { from: T, to: T + 86_400 };
const nameOf = (key: string) => `Name of ${key}`;
const alarm = (over: Partial<AlarmStory> = {}): AlarmStory => ({
  id: 1,
  channelKey: "K1",
  device: "Lab",
  rule: "Fridge warm",
  triggeredAt: T + 100,
  acknowledgedAt: null,
  acknowledgedBy: null,
  note: null,
  clearedAt: null,
  ...over,
});
const comment = (over: Partial<PinnedComment> = {}): PinnedComment => ({
  id: 9,
  channelKey: "K1",
  at: T + 50,
  text: "door open for delivery",
  author: null,
  ...over,
});
const marksOf = (alarms: AlarmStory[], comments: PinnedComment[] = []) =>
  chartMarks(alarms, comments, WINDOW, nameOf).map((m) => [m.at - T, m.kind, m.label, m.text]);

describe("the alarm story as chart marks", () => {
  it.each([
    [
      "marks a triggered alarm on its channel",
      [alarm()],
      [[100, "triggered", "Alarm", "Alarm: Fridge warm on Name of K1"]],
    ],
    [
      "names a device alarm by its device",
      [alarm({ channelKey: null, rule: "Silent" })],
      [[100, "triggered", "Alarm", "Alarm: Silent on Lab (device)"]],
    ],
    [
      "shows who acknowledged with the note, the label cut to a few words",
      [
        alarm({
          acknowledgedAt: T + 200,
          acknowledgedBy: "Ada Admin",
          note: "Compressor restarted by the technician",
          clearedAt: T + 300,
        }),
      ],
      [
        [100, "triggered", "Alarm", "Alarm: Fridge warm on Name of K1"],
        [
          200,
          "acknowledged",
          "Ack: Compressor restarted by…",
          "Acknowledged by Ada Admin: Compressor restarted by the technician",
        ],
        [300, "cleared", "Cleared", "Cleared: Fridge warm on Name of K1"],
      ],
    ],
    [
      "says only that it was acknowledged when note and name are hidden",
      [alarm({ acknowledgedAt: T + 200 })],
      [
        [100, "triggered", "Alarm", "Alarm: Fridge warm on Name of K1"],
        [200, "acknowledged", "Ack", "Acknowledged"],
      ],
    ],
    [
      "leaves out the moves outside the window, keeping those inside",
      [alarm({ triggeredAt: T - 500, acknowledgedAt: T + 10, clearedAt: T + 90_000 })],
      [[10, "acknowledged", "Ack", "Acknowledged"]],
    ],
  ])("%s", (_, alarms, expected) => {
    expect(marksOf(alarms)).toEqual(expected);
  });

  it("puts comments among the alarm marks in time order, with the author only when given", () => {
    expect(marksOf([alarm()], [comment(), comment({ id: 10, at: T + 150, author: "Max Manager" })])).toEqual([
      [50, "comment", "door open for delivery", "Comment on Name of K1: door open for delivery"],
      [100, "triggered", "Alarm", "Alarm: Fridge warm on Name of K1"],
      [
        150,
        "comment",
        "door open for delivery",
        "Comment on Name of K1, Max Manager: door open for delivery",
      ],
    ]);
  });

  it("keeps the latest marks when there are more than a chart can hold", () => {
    const many = Array.from({ length: MAX_MARKS + 5 }, (_, i) => comment({ id: i, at: T + i }));
    const marks = chartMarks([], many, WINDOW, nameOf);
    expect(marks).toHaveLength(MAX_MARKS);
    expect(marks[0]!.at).toBe(T + 5);
  });

  it("titles a mark with its time in the zone", () => {
    const [mark] = chartMarks(
      [alarm({ triggeredAt: Date.UTC(2026, 10, 22, 15, 7) / 1000 })],
      [],
      { from: 0, to: 2e9 },
      nameOf,
    );
    expect(markTitle(mark!, "America/New_York")).toBe(
      "Nov 22, 2026, 10:07 AM: Alarm: Fridge warm on Name of K1",
    );
  });
});
