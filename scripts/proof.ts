// `npm run proof`: the reliability proofs of issue 12, each on PGlite and on PostgreSQL (when
// one answers at PROOF_DATABASE_URL, default the local cluster), printed as one table.
//   kill -9 during payments and device pushes: 20 kills on PGlite, 200 on PostgreSQL.
//   --short: 5 and 20 kills (the CI's version).  --pglite-kills N, --postgres-kills N,
//   --only pglite|postgres.  Exits 1 on any lost, doubled or half-stored record.
// Servers run on ports 4570 (PGlite) and 4571 (PostgreSQL); logs in /tmp/k-proof-*/.
import { mkdtempSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { failures, killRun, type KillResult } from "./proof/killRun.ts";
import { killTables } from "./proof/table.ts";
import { pgliteTarget, postgresTarget, type Target } from "./proof/target.ts";

const { values } = parseArgs({
  options: {
    short: { type: "boolean" },
    only: { type: "string" },
    "pglite-kills": { type: "string" },
    "postgres-kills": { type: "string" },
  },
});
const count = (text: string | undefined, full: number, short: number) =>
  text === undefined ? (values.short ? short : full) : Math.max(1, Number.parseInt(text, 10) || 1);
const pgliteKills = count(values["pglite-kills"], 20, 5);
const postgresKills = count(values["postgres-kills"], 200, 20);

const work = mkdtempSync("/tmp/k-proof-");
const results: KillResult[] = [];
const problems: string[] = [];

/** One database's run; its data removed afterwards, its server log kept in `work`. */
async function run(make: () => Promise<Target | null>, kills: number, port: number) {
  const target = await make();
  if (!target) return console.log("PostgreSQL does not answer: its column is left out.");
  console.log(`${target.name}: kill -9 ${kills} times during payments and pushes...`);
  try {
    const result = await killRun(target, kills, port, `${work}/${target.name}.log`);
    results.push(result);
    problems.push(...failures(result));
  } catch (e) {
    problems.push(`${target.name}: the run stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await target.remove().catch(() => {});
  }
}

if (values.only !== "postgres") await run(async () => pgliteTarget(work), pgliteKills, 4570);
if (values.only !== "pglite") await run(postgresTarget, postgresKills, 4571);

console.log(`\n${killTables(results)}\n`);
if (problems.length) {
  console.log(`FAILED (server logs in ${work}):\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("Every charge has one payment row, no order lacks its charge, no record was charged twice,");
console.log("every retry got the first answer, every 2xx push is stored whole and none half-stored.");
rmSync(work, { recursive: true, force: true });
