import { describe, expect, it } from "vitest";
import { caughtUpTo, lsnValue, type PrimaryMark } from "../../server/data/replicaLag.ts";

/* How far a replica is behind, by WAL position (server/data/replicaLag.ts). */

describe("replica lag by WAL position", () => {
  it.each([
    ["0/0", 0n],
    ["0/16B3748", 0x16b3748n],
    ["2/8C646AE0", (2n << 32n) + 0x8c646ae0n],
    ["FF/FFFFFFFF", (0xffn << 32n) + 0xffffffffn],
  ])("reads the WAL position %s as one comparable number", (text, value) => {
    expect(lsnValue(text)).toBe(value);
  });

  it("orders positions across the 4 GB boundary as PostgreSQL does", () => {
    expect(lsnValue("1/0") > lsnValue("0/FFFFFFFF")).toBe(true);
  });

  const marks: PrimaryMark[] = [
    { at: 1000, lsn: 100n },
    { at: 2000, lsn: 200n },
    { at: 3000, lsn: 300n },
  ];
  it.each([
    [
      "has replayed the newest mark: it holds everything up to that probe",
      { kind: "standby", replayed: 300n },
      3000,
    ],
    ["is between two marks: it holds what the older one had", { kind: "standby", replayed: 250n }, 2000],
    ["is exactly at a mark", { kind: "standby", replayed: 200n }, 2000],
    ["is behind every mark kept: unknown", { kind: "standby", replayed: 50n }, null],
    ["takes writes itself (promoted, or a stand-in): as fresh as the probe", { kind: "writable" }, 3500],
    ["does not answer: unknown", { kind: "away", error: "connect ECONNREFUSED" }, null],
  ] as const)("a replica that %s", (_what, reading, expected) => {
    expect(caughtUpTo(marks, reading, 3500)).toBe(expected);
  });
});
