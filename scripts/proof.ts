// `npm run proof`: the reliability proofs of issue 12, each on PGlite and on PostgreSQL (when
// one answers at PROOF_DATABASE_URL, default the local cluster), printed as one set of tables.
//   Faults. kill -9 during payments and device pushes: 20 kills on PGlite, 200 on PostgreSQL.
//   SIGTERM under load: 5 SIGTERMs per database (a new process on the same data each time).
//   Database away: PostgreSQL (a cluster of the proof's own, port 5433) stopped for 30 s.
//   Load: `npm run load`'s run (baseline, reads, sign-in storm, ingestion ramp).
//   Operations: /metrics and the request log against counted traffic, backup and restore.
//   Audit: the payment and settings paths with the audit trail on and off (AUDIT_TRAIL=0),
//   alternating rounds; the cost is printed against its 5 % goal (the kill runs check the rows).
//   Replica: PostgreSQL only; a hot standby of its own (pg_basebackup -R, port 5433) serves the
//   public reads under load, its replay paused (reads fall back on lag), stopped (fall back,
//   no 5xx) and started again (reads return to it); 10 s a phase, 6 s with --short.
//   --short (the CI's version): 5 and 12 kills side by side, 1 SIGTERM (PostgreSQL only), a
//   10 s outage, a load of 1 s a call on PostgreSQL with one ramp step of 250 devices,
//   operations as in full, 4 short audit rounds on PostgreSQL only.
//   --pglite-kills N, --postgres-kills N, --sigterms N, --outage-seconds N,
//   --only pglite|postgres, --proofs kill,sigterm,outage,load,operations,audit (default all six).
//   Exits 1 on any lost, doubled or half-stored record, a 5xx outside a fault, a count the
//   metrics or the log get wrong, a table a restore changes, or a claim that does not hold.
//   Speed goals are printed (goal met: yes/no), not failed: they measure the machine too.
// Servers run on ports 4570-4578, 4580-4581 and 4750 (the replica's standby: 5433); logs in /tmp/k-proof-*/.
import { mkdtempSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { failures, killRun, type KillResult } from "./proof/killRun.ts";
import { outageFailures, outageRun, type OutageResult } from "./proof/outage.ts";
import { sigtermFailures, sigtermRun, type SigtermResult } from "./proof/sigterm.ts";
import { killTables } from "./proof/table.ts";
import { operationsFailures, operationsRun, type OperationsResult } from "./proof/operations.ts";
import { operationsTable } from "./proof/opsTable.ts";
import { loadRun, type EngineRun, type LoadOptions } from "./load/run.ts";
import { loadFailures, loadTables } from "./load/tables.ts";
import { outageTable, sigtermTable } from "./proof/faultTables.ts";
import { PG_URL, pgliteTarget, postgresTarget, type Target } from "./proof/target.ts";
import { auditCostRun, type AuditCostResult } from "./proof/auditCost.ts";
import { auditCostFailures, auditCostTable } from "./proof/auditCostReport.ts";
import { replicaFailures, replicaRun, replicaTable, type ReplicaResult } from "./proof/replica.ts";

const { values } = parseArgs({
  options: {
    short: { type: "boolean" },
    only: { type: "string" },
    proofs: { type: "string" },
    "pglite-kills": { type: "string" },
    "postgres-kills": { type: "string" },
    sigterms: { type: "string" },
    "outage-seconds": { type: "string" },
  },
});
const count = (text: string | undefined, full: number, short: number) =>
  text === undefined ? (values.short ? short : full) : Math.max(1, Number.parseInt(text, 10) || 1);
const pgliteKills = count(values["pglite-kills"], 20, 5);
const postgresKills = count(values["postgres-kills"], 200, 12);
const sigterms = count(values.sigterms, 5, 1);
const outageSeconds = count(values["outage-seconds"], 30, 10);
const PROOFS = ["kill", "sigterm", "outage", "load", "operations", "audit", "replica"];
const proofs = new Set(values.proofs?.split(",") ?? PROOFS);
const databases = (["pglite", "postgres"] as const).filter((d) => !values.only || values.only === d);
// A misspelt name would run nothing and pass.
for (const name of proofs)
  if (!PROOFS.includes(name)) stopWith(`--proofs: no proof is called '${name}' (${PROOFS.join(", ")}).`);
if (!databases.length) stopWith(`--only: '${values.only}' is neither pglite nor postgres.`);

function stopWith(message: string): never {
  console.error(message);
  process.exit(2);
}

const work = mkdtempSync("/tmp/k-proof-");
const proofBegan = Date.now();
const kills: KillResult[] = [];
const drains: SigtermResult[] = [];
const outages: OutageResult[] = [];
const operations: OperationsResult[] = [];
const auditCosts: AuditCostResult[] = [];
const replicas: ReplicaResult[] = [];
let loads: EngineRun[] = [];
const problems: string[] = [];

/** One proof on one database; its data removed afterwards, its server log kept in `work`. */
async function run(
  make: () => Promise<Target | null>,
  what: string,
  proof: (t: Target) => Promise<string[]>,
) {
  const target = await make();
  if (!target) {
    // CI's version must prove PostgreSQL too: a cluster that did not start is a failure there.
    if (values.short) problems.push(`PostgreSQL does not answer at ${PG_URL}: ${what} did not run on it.`);
    return console.log(`PostgreSQL does not answer: ${what} runs on PGlite only.`);
  }
  console.log(`${target.name}: ${what}...`);
  const began = Date.now();
  try {
    problems.push(...(await proof(target)));
  } catch (e) {
    problems.push(`${target.name} ${what}: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await target.remove().catch(() => {});
    console.log(`  (${Math.round((Date.now() - began) / 1000)} s)`);
  }
}

const targets = {
  pglite: { make: async () => pgliteTarget(work), kills: pgliteKills, port: 4570 },
  postgres: { make: postgresTarget, kills: postgresKills, port: 4571 },
};
const killProof = (db: (typeof databases)[number]) => {
  const { make, kills: n, port } = targets[db];
  return run(make, `kill -9 ${n} times during payments and pushes`, async (t) => {
    const result = await killRun(t, n, port, `${work}/${t.name}.log`);
    kills.push(result);
    return failures(result);
  });
};
// --short runs the two kill proofs side by side: each ends waiting up to a minute for the
// payments its last kill cut mid-charge (their attempts go stale after STALE_MS), time the
// other one can use. The full run keeps them apart, so its restart times are each its own.
if (proofs.has("kill") && values.short) await Promise.all(databases.map(killProof));
for (const db of databases) {
  const { make, port } = targets[db];
  if (proofs.has("kill") && !values.short) await killProof(db);
  // --short keeps to PostgreSQL: a PGlite process takes 10-40 s to start under load here.
  if (proofs.has("sigterm") && (db === "postgres" || !values.short))
    await run(make, `SIGTERM ${sigterms} times under load`, async (t) => {
      const loadMs = values.short ? 4000 : 8000;
      const result = await sigtermRun(t, sigterms, port + 2, `${work}/${t.name}-sigterm.log`, loadMs);
      drains.push(result);
      return sigtermFailures(result);
    });
}
if (proofs.has("outage") && databases.includes("postgres")) {
  console.log(`PostgreSQL: stopped for ${outageSeconds} s under load...`);
  try {
    const result = await outageRun(outageSeconds, 4574, `${work}/PostgreSQL-outage.log`);
    if (result) {
      outages.push(result);
      problems.push(...outageFailures(result));
    } else if (values.short) problems.push("PostgreSQL outage: the proof's own cluster could not be made.");
  } catch (e) {
    problems.push(`PostgreSQL outage: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  }
}

for (const db of databases)
  if (proofs.has("operations"))
    await run(
      targets[db].make,
      "operations (metrics and request log against counted traffic, backup and restore)",
      async (t) => {
        const result = await operationsRun(t, 4575 + (db === "postgres" ? 1 : 0), work);
        operations.push(result);
        return operationsFailures(result);
      },
    );

// The audit trail's cost: alternating batches with it on and off (--short: PostgreSQL, 4 rounds).
for (const db of databases)
  if (proofs.has("audit") && (db === "postgres" || !values.short))
    await run(targets[db].make, "audit trail on and off (payments and settings)", async (t) => {
      const opts = values.short
        ? { rounds: 4, payments: 15, settings: 75 }
        : { rounds: 8, payments: 50, settings: 250 };
      const result = await auditCostRun(
        t,
        4577 + (db === "postgres" ? 1 : 0),
        `${work}/${t.name}-audit.log`,
        opts,
      );
      auditCosts.push(result);
      return auditCostFailures(result);
    });

// The read replica: about a minute with --short (setup 20-30 s, five phases of 6 s).
if (proofs.has("replica") && databases.includes("postgres")) {
  console.log("PostgreSQL: public reads on a hot standby, its replay paused, stopped and started...");
  const began = Date.now();
  try {
    const result = await replicaRun(4750, `${work}/PostgreSQL-replica.log`, values.short ? 6 : 10);
    if (result) {
      replicas.push(result);
      problems.push(...replicaFailures(result));
    } else if (values.short)
      problems.push("Read replica: no standby could be made (PostgreSQL 15 as root or postgres).");
  } catch (e) {
    problems.push(`Read replica: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  }
  console.log(`  (${Math.round((Date.now() - began) / 1000)} s)`);
}

/** The load run's figures: `npm run load`'s in full; a taste on one database with --short. */
const loadOptions: LoadOptions = values.short
  ? {
      engines: [],
      port: 4580,
      connections: 50,
      seconds: 1,
      ingestSeconds: 4,
      maxDevices: 250,
      storm: 20,
      stormConnections: [50],
      users: 200,
    }
  : {
      engines: [],
      port: 4580,
      connections: 50,
      seconds: 10,
      ingestSeconds: 30,
      maxDevices: 8000,
      storm: 200,
      stormConnections: [50, 10],
      users: 200,
    };
if (proofs.has("load")) {
  // --short loads PostgreSQL alone (PGlite when PostgreSQL does not answer): under 5 minutes in all.
  loadOptions.engines = values.short && databases.includes("postgres") ? ["postgres"] : databases;
  console.log(`load on ${loadOptions.engines.join(" and ")}...`);
  const began = Date.now();
  try {
    loads = await loadRun({ ...loadOptions, databaseUrl: PG_URL });
    if (!loads.length && values.short && databases.includes("pglite"))
      loads = await loadRun({ ...loadOptions, engines: ["pglite"] });
    problems.push(...loadFailures(loads, loadOptions.storm));
  } catch (e) {
    problems.push(`load: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  }
  console.log(`  (${Math.round((Date.now() - began) / 1000)} s)`);
}

// Side by side (--short), the kill proofs may end in either order: PGlite's row first.
const pgliteFirst = (r: KillResult) => (r.database === "PGlite" ? 0 : 1);
kills.sort((a, b) => pgliteFirst(a) - pgliteFirst(b));
const tables = [
  kills.length ? killTables(kills) : "",
  drains.length ? sigtermTable(drains) : "",
  outages.length ? outageTable(outages) : "",
  loads.length ? loadTables(loads, loadOptions) : "",
  operations.length ? operationsTable(operations) : "",
  auditCosts.length ? auditCostTable(auditCosts) : "",
  ...replicas.map(replicaTable),
];
console.log(`\n${tables.filter(Boolean).join("\n\n")}\n`);
console.log(`The proofs took ${((Date.now() - proofBegan) / 60_000).toFixed(1)} minutes.`);
if (problems.length) {
  console.log(`FAILED (server logs in ${work}):\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
if (kills.length) {
  console.log("Every charge has one payment row, no order lacks its charge, no record was charged twice,");
  console.log("every retry got the first answer, every 2xx push is stored whole and none half-stored.");
}
if (drains.length)
  console.log("SIGTERM: no answer cut off, no 5xx, every accepted push answered, exit 0, live clients back.");
if (outages.length)
  console.log(
    "Database away: only 503s with Retry-After, fast, no 500, the process stayed up and recovered.",
  );
if (loads.length) console.log("Load: every request answered, no 5xx (goals: the tables' last column).");
if (auditCosts.length)
  console.log(
    "Audit: every request answered, rows written with the trail on and none with it off (cost: its table).",
  );
if (replicas.length)
  console.log(
    "Replica: public reads served by the standby, back on the primary on lag and while it was stopped, no failed request, back on it after.",
  );
if (operations.length)
  console.log(
    "Operations: /metrics counted every request, push and charge and answers only here or with the token; one well-formed log line per request, no secret in it; every table came back from its backup the same.",
  );
rmSync(work, { recursive: true, force: true });
