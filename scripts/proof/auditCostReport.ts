// What `npm run proof` prints of the audit trail's cost (auditCost.ts runs it): the checks that
// must hold whatever the machine, and the table, with the CPU each request cost beside the
// latency, since on two shared cores latency follows CPU and the host's own load.
import { AUDIT_COST_GOAL, type AuditCostResult, type Cpu } from "./auditCost.ts";
import { markdownTable } from "./table.ts";

/** A side's CPU per request as "portal + PostgreSQL", in ms. */
const cpuText = (c: Cpu) => `${c.portal.toFixed(2)} + ${c.postgres.toFixed(2)}`;

/** What must hold whatever the machine: nothing failed, rows only with the trail on. */
export function auditCostFailures(r: AuditCostResult): string[] {
  const problems: string[] = [];
  for (const p of r.paths)
    for (const side of ["on", "off"] as const)
      if (p[side].failed)
        problems.push(
          `${r.database} audit cost: ${p[side].failed} ${p.path} requests failed (trail ${side})`,
        );
  if (r.rowsOn === 0)
    problems.push(`${r.database} audit cost: the rounds with the trail on wrote no audit row`);
  if (r.rowsOff !== 0)
    problems.push(`${r.database} audit cost: AUDIT_TRAIL=0 still wrote ${r.rowsOff} audit rows`);
  if (r.unsealed)
    problems.push(`${r.database} audit cost: ${r.unsealed} audit rows were left unchained after a stop`);
  if (r.chainFaults)
    problems.push(`${r.database} audit cost: the chains show ${r.chainFaults} faults after the run`);
  return problems;
}

/** One row per database and path: each side's median and p95, and the ratio against the goal. */
export function auditCostTable(results: AuditCostResult[]): string {
  return markdownTable(
    [
      "Audit trail's cost",
      "Path",
      "Rounds",
      "Requests on/off",
      "Median on/off (ms)",
      "p95 on/off (ms)",
      "On ÷ off",
      `Goal ≤ ${AUDIT_COST_GOAL}`,
      "Rounds' median ÷",
      "CPU per request on (ms, portal + PostgreSQL)",
      "CPU per request off",
      "CPU on ÷ off",
    ],
    results.flatMap((r) =>
      r.paths.map((p) => [
        r.database,
        p.path,
        r.rounds,
        `${p.on.requests}/${p.off.requests}`,
        `${p.on.medianMs}/${p.off.medianMs}`,
        `${p.on.p95Ms}/${p.off.p95Ms}`,
        p.ratio.toFixed(3),
        p.ratio <= AUDIT_COST_GOAL ? "yes" : "no",
        p.roundRatio.toFixed(3),
        cpuText(p.on.cpuMs),
        cpuText(p.off.cpuMs),
        cpuRatio(p.on.cpuMs, p.off.cpuMs),
      ]),
    ),
  );
}

/** Both processes' CPU with the trail over without it ("–" when nothing was measured). */
function cpuRatio(on: Cpu, off: Cpu): string {
  const without = off.portal + off.postgres;
  return without ? ((on.portal + on.postgres) / without).toFixed(3) : "–";
}
