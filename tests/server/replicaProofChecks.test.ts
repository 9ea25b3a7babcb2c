import { describe, expect, it } from "vitest";
import { replicaFailures, type ReplicaPhase, type ReplicaResult } from "../../scripts/proof/replica.ts";

/* The replica proof's claims (scripts/proof/replica.ts) fail when what they claim does not hold. */

const phase = (name: string, over: Partial<ReplicaPhase> = {}): ReplicaPhase => ({
  name,
  seconds: 10,
  requests: 1000,
  failed: 0,
  p99Ms: 300,
  replicaReads: 0,
  primaryReads: 0,
  fallbacks: { away: 0, lag: 0, failed: 0 },
  maxLagSeconds: 0,
  ...over,
});

/** A run in which everything went as it should. */
const good = (): ReplicaResult => ({
  setupSeconds: 20,
  stayedUp: true,
  phases: [
    phase("replica streaming", { replicaReads: 1000 }),
    phase("replay paused (lag grows)", {
      replicaReads: 100,
      primaryReads: 900,
      fallbacks: { away: 0, lag: 900, failed: 0 },
    }),
    phase("replay resumed", { replicaReads: 1000, primaryReads: 10 }),
    phase("standby stopped", { primaryReads: 1000, fallbacks: { away: 990, lag: 0, failed: 10 } }),
    phase("standby started again", { replicaReads: 800, primaryReads: 20 }),
  ],
});

describe("the replica proof's checks", () => {
  it("pass a run where the replica served, fell back and came back without an error", () => {
    expect(replicaFailures(good())).toEqual([]);
  });

  it.each([
    [
      "a failed request while the standby was stopped",
      (r: ReplicaResult) => (r.phases[3]!.failed = 2),
      "2 failed requests while standby stopped",
    ],
    [
      "reads on the primary while the replica streamed",
      (r: ReplicaResult) => (r.phases[0]!.primaryReads = 200),
      "83 % of reads on the replica",
    ],
    [
      "no lag fallback while replay was paused",
      (r: ReplicaResult) => (r.phases[1]!.fallbacks.lag = 0),
      "no lag fallback",
    ],
    [
      "no fallback while the standby was stopped",
      (r: ReplicaResult) => (r.phases[3]!.fallbacks = { away: 0, lag: 0, failed: 0 }),
      "no fallback while the standby was stopped",
    ],
    [
      "no reads on the replica after it came back",
      (r: ReplicaResult) => (r.phases[4]!.replicaReads = 0),
      "after it started again",
    ],
    ["a server that exited", (r: ReplicaResult) => (r.stayedUp = false), "the server process exited"],
  ])("fail on %s", (_what, spoil, message) => {
    const r = good();
    spoil(r);
    expect(replicaFailures(r).join("\n")).toContain(message);
  });
});
