// The live viewers' part of `npm run load` alone (scripts/load/liveViewers.ts):
// `node scripts/loadLive.ts`, with LOAD_ENGINES, LOAD_PORT and the LOAD_LIVE_* of liveOptions.
import { liveOptions, liveViewersRun } from "./load/liveViewers.ts";
import { liveViewerFailures, liveViewerTable } from "./load/liveTable.ts";

const engines = (process.env["LOAD_ENGINES"] ?? "postgres,pglite").split(",") as ("postgres" | "pglite")[];
const options = liveOptions(engines, Number(process.env["LOAD_PORT"] ?? 4580));
const runs = await liveViewersRun(options);
console.log(liveViewerTable(runs, options));
const problems = liveViewerFailures(runs);
if (problems.length) {
  console.log(`\nFAILED:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
