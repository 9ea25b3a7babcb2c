// `npm run proof`: the reliability proofs of issue 12, each on PGlite and on PostgreSQL (when
// one answers at PROOF_DATABASE_URL, default the local cluster), printed as one table.
//   kill -9 during payments and device pushes: 20 kills on PGlite, 200 on PostgreSQL.
//   SIGTERM under load: 5 SIGTERMs per database (a new process on the same data each time).
//   Database away: PostgreSQL (a cluster of the proof's own, port 5433) stopped for 30 s.
//   --short: 5 and 12 kills, 1 SIGTERM (PostgreSQL only), a 10 s outage (the CI's version).
//   --pglite-kills N, --postgres-kills N, --sigterms N, --outage-seconds N,
//   --only pglite|postgres, --proofs kill,sigterm,outage (default all three).
//   Exits 1 on any lost, doubled or half-stored record, or a claim that does not hold.
// Servers run on ports 4570-4574; logs in /tmp/k-proof-*/.
import { mkdtempSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { failures, killRun, type KillResult } from "./proof/killRun.ts";
import { outageFailures, outageRun, type OutageResult } from "./proof/outage.ts";
import { sigtermFailures, sigtermRun, type SigtermResult } from "./proof/sigterm.ts";
import { killTables } from "./proof/table.ts";
import { outageTable, sigtermTable } from "./proof/faultTables.ts";
import { pgliteTarget, postgresTarget, type Target } from "./proof/target.ts";

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
const proofs = new Set((values.proofs ?? "kill,sigterm,outage").split(","));
const databases = (["pglite", "postgres"] as const).filter((d) => !values.only || values.only === d);

const work = mkdtempSync("/tmp/k-proof-");
const kills: KillResult[] = [];
const drains: SigtermResult[] = [];
const outages: OutageResult[] = [];
const problems: string[] = [];

/** One proof on one database; its data removed afterwards, its server log kept in `work`. */
async function run(
  make: () => Promise<Target | null>,
  what: string,
  proof: (t: Target) => Promise<string[]>,
) {
  const target = await make();
  if (!target) return console.log(`PostgreSQL does not answer: ${what} runs on PGlite only.`);
  console.log(`${target.name}: ${what}...`);
  try {
    problems.push(...(await proof(target)));
  } catch (e) {
    problems.push(`${target.name} ${what}: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await target.remove().catch(() => {});
  }
}

const targets = {
  pglite: { make: async () => pgliteTarget(work), kills: pgliteKills, port: 4570 },
  postgres: { make: postgresTarget, kills: postgresKills, port: 4571 },
};
for (const db of databases) {
  const { make, kills: n, port } = targets[db];
  if (proofs.has("kill"))
    await run(make, `kill -9 ${n} times during payments and pushes`, async (t) => {
      const result = await killRun(t, n, port, `${work}/${t.name}.log`);
      kills.push(result);
      return failures(result);
    });
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
    }
  } catch (e) {
    problems.push(`PostgreSQL outage: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const tables = [
  kills.length ? killTables(kills) : "",
  drains.length ? sigtermTable(drains) : "",
  outages.length ? outageTable(outages) : "",
];
console.log(`\n${tables.filter(Boolean).join("\n\n")}\n`);
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
rmSync(work, { recursive: true, force: true });
