import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { AuditCostResult, PathCost } from "../../scripts/proof/auditCost.ts";
import { auditCostFailures, auditCostTable } from "../../scripts/proof/auditCostReport.ts";
import { postgresCpuMs, processCpuMs } from "../../scripts/proof/cpuTicks.ts";

/* What `npm run proof` reads of a process's CPU (scripts/proof/cpuTicks.ts) and prints of the
 * audit trail's cost (scripts/proof/auditCostReport.ts). */

describe("the CPU readings", () => {
  it("count what a busy process used, and nothing for one that is gone", async () => {
    // A child that spins until it has used 300 ms of CPU (however busy the machine), then waits.
    const child = spawn(
      process.execPath,
      [
        "-e",
        "const used=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};" +
          "while (used()<300); setTimeout(()=>{}, 30000)",
      ],
      { stdio: "ignore" },
    );
    try {
      let seen = 0;
      for (let waited = 0; waited < 20_000 && seen < 250; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        seen = processCpuMs(child.pid!);
      }
      expect(seen).toBeGreaterThanOrEqual(250);
    } finally {
      child.kill("SIGKILL");
    }
    await new Promise((r) => child.once("exit", r));
    expect(processCpuMs(child.pid!)).toBe(0);
    expect(processCpuMs(-1)).toBe(0);
  });

  it("read PostgreSQL's processes as a sum that never goes back", () => {
    const first = postgresCpuMs();
    expect(first).toBeGreaterThanOrEqual(0);
    expect(postgresCpuMs()).toBeGreaterThanOrEqual(first);
  });
});

const side = (medianMs: number, portal: number, postgres: number, failed = 0) => ({
  requests: 100,
  failed,
  medianMs,
  p95Ms: medianMs * 2,
  cpuMs: { portal, postgres },
});
const path = (name: PathCost["path"], ratio: number, roundRatio: number): PathCost => ({
  path: name,
  on: side(7.5, 1.7, 0.8),
  off: side(6.5, 1.5, 0.5),
  ratio,
  roundRatio,
});
const result = (over: Partial<AuditCostResult> = {}): AuditCostResult => ({
  database: "PostgreSQL",
  rounds: 8,
  paths: [path("payments", 1.02, 1.01), path("settings", 1.154, 1.107)],
  rowsOn: 2400,
  rowsOff: 0,
  unsealed: 0,
  chainFaults: 0,
  ...over,
});

describe("the audit trail's cost table", () => {
  it("shows each path's latency, its rounds' median ratio and its CPU per request on both sides", () => {
    const table = auditCostTable([result()]);
    expect(table).toContain(
      "| PostgreSQL | settings | 8 | 100/100 | 7.5/6.5 | 15/13 | 1.154 | no | 1.107 | 1.70 + 0.80 | 1.50 + 0.50 | 1.250 |",
    );
    expect(table).toContain(
      "| PostgreSQL | payments | 8 | 100/100 | 7.5/6.5 | 15/13 | 1.020 | yes | 1.010 |",
    );
  });

  it("names failed requests, rows written without the trail, unsealed rows and chain faults", () => {
    expect(auditCostFailures(result())).toEqual([]);
    const bad = result({ rowsOff: 3, unsealed: 2, chainFaults: 1 });
    bad.paths[1]!.on.failed = 4;
    expect(auditCostFailures(bad)).toEqual([
      "PostgreSQL audit cost: 4 settings requests failed (trail on)",
      "PostgreSQL audit cost: AUDIT_TRAIL=0 still wrote 3 audit rows",
      "PostgreSQL audit cost: 2 audit rows were left unchained after a stop",
      "PostgreSQL audit cost: the chains show 1 faults after the run",
    ]);
  });
});
