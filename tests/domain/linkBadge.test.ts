import { describe, expect, it } from "vitest";
import { BADGE_NAME_MAX, badgeSvg, linkState, shortName } from "../../src/domain/linkBadge.ts";
import { nextNoticeAt, VISITOR_WINDOW_MS } from "../../src/domain/visitorNotices.ts";

const now = new Date("2026-11-29T12:00:00Z");
const ago = (s: number) => new Date(now.getTime() - s * 1000);

describe("linkState", () => {
  const CASES: {
    name: string;
    alarms: number;
    devices: { lastMessageAt: Date | null; pushInterval: number }[];
    state: string;
  }[] = [
    {
      name: "an open alarm wins over silence",
      alarms: 1,
      devices: [{ lastMessageAt: null, pushInterval: 60 }],
      state: "alarm",
    },
    {
      name: "a device that pushed on time is OK",
      alarms: 0,
      devices: [{ lastMessageAt: ago(30), pushInterval: 60 }],
      state: "ok",
    },
    {
      name: "a push late by less than the grace is OK",
      alarms: 0,
      devices: [{ lastMessageAt: ago(60 + 299), pushInterval: 60 }],
      state: "ok",
    },
    {
      name: "a push late by more than the grace is silent",
      alarms: 0,
      devices: [{ lastMessageAt: ago(60 + 301), pushInterval: 60 }],
      state: "silent",
    },
    {
      name: "a device that never pushed is silent",
      alarms: 0,
      devices: [{ lastMessageAt: null, pushInterval: 60 }],
      state: "silent",
    },
    {
      name: "one silent device of two makes the link silent",
      alarms: 0,
      devices: [
        { lastMessageAt: ago(1), pushInterval: 60 },
        { lastMessageAt: ago(9999), pushInterval: 60 },
      ],
      state: "silent",
    },
    { name: "a link without devices is OK", alarms: 0, devices: [], state: "ok" },
  ];
  for (const c of CASES)
    it(`says ${c.state}: ${c.name}`, () => expect(linkState(c.alarms, c.devices, now)).toBe(c.state));
});

describe("badgeSvg", () => {
  it("says the name and the state", () => {
    const svg = badgeSvg("Freezer room", "alarm");
    expect(svg).toContain(">Freezer room<");
    expect(svg).toContain(">alarm<");
    expect(svg).toContain("<title>Freezer room: alarm</title>");
  });
  it("escapes the name", () => {
    const svg = badgeSvg(`<script>"x" & 'y'</script>`, "ok");
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;script&gt;");
  });
  it("cuts a long name with an ellipsis", () => {
    expect([...shortName("x".repeat(100))]).toHaveLength(BADGE_NAME_MAX);
    expect(shortName("x".repeat(100)).endsWith("…")).toBe(true);
    expect(shortName("  Lab   fridge ")).toBe("Lab fridge");
  });
  it("stays within 1 KB for the worst names", () => {
    for (const name of ["&".repeat(200), "😀".repeat(200), "W".repeat(500), ""])
      for (const state of ["ok", "alarm", "silent"] as const)
        expect(new TextEncoder().encode(badgeSvg(name, state)).length).toBeLessThanOrEqual(1024);
  });
});

describe("nextNoticeAt", () => {
  it("sends at once to an address never written to", () => expect(nextNoticeAt(null, now)).toEqual(now));
  it("sends at once after a quiet window", () => expect(nextNoticeAt(ago(601), now)).toEqual(now));
  it("holds a message until the window ends", () =>
    expect(nextNoticeAt(ago(60), now)).toEqual(new Date(ago(60).getTime() + VISITOR_WINDOW_MS)));
});
