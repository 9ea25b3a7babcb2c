// `npm run load`: on PostgreSQL (when one answers) and on PGlite, a Hono hello-world baseline
// and the portal calls under autocannon, a sign-in storm beside the public order, and the
// largest number of once-a-minute devices the push endpoint sustains (scripts/load/run.ts).
// Prints the tables; exits 1 when a request got no answer or a 5xx (scripts/load/tables.ts).
// LOAD_CONNECTIONS (50), LOAD_SECONDS (10), LOAD_INGEST_SECONDS (30), LOAD_ENGINES
// ("postgres,pglite"), LOAD_MAX_DEVICES (8000), LOAD_STORM (200), LOAD_USERS (200) and
// BENCH_DATABASE_URL tune it; the live viewers' part (scripts/loadLive.ts) takes LOAD_LIVE_*. `npm run proof` runs the same with its own figures.
import { settings } from "./load/cannon.ts";
import { notifyCost, notifyTable } from "./load/notifyCost.ts";
import { loadRun, type LoadOptions } from "./load/run.ts";
import { loadFailures, loadTables } from "./load/tables.ts";
import { liveOptions, liveViewersRun } from "./load/liveViewers.ts";
import { liveViewerFailures, liveViewerTable } from "./load/liveTable.ts";

const env = process.env;
const options: LoadOptions = {
  engines: (env["LOAD_ENGINES"] ?? "postgres,pglite").split(",") as LoadOptions["engines"],
  port: Number(env["LOAD_PORT"] ?? 4580),
  connections: settings.connections,
  seconds: settings.seconds,
  ingestSeconds: Number(env["LOAD_INGEST_SECONDS"] ?? 30),
  maxDevices: Number(env["LOAD_MAX_DEVICES"] ?? 8000),
  storm: Number(env["LOAD_STORM"] ?? 200),
  stormConnections: [settings.connections, 10],
  users: Number(env["LOAD_USERS"] ?? 200),
  ingestOnly: env["LOAD_ONLY"] === "ingest",
  ingestFirst: Number(env["LOAD_INGEST_FIRST"] ?? 250),
  sustain: env["LOAD_SUSTAIN_SECONDS"]
    ? { seconds: Number(env["LOAD_SUSTAIN_SECONDS"]), devices: Number(env["LOAD_SUSTAIN_DEVICES"] ?? 30_000) }
    : undefined,
};
const runs = await loadRun(options);
const live = liveOptions(options.engines, options.port);
const liveRuns = await liveViewersRun(live);
console.log(`\n${loadTables(runs, options)}`);
if (liveRuns.length) console.log(liveViewerTable(liveRuns, live));
// LOAD_NOTIFY_SECONDS (10; 0 leaves it out): commit latency with and without NOTIFY at 2,000 writes/s.
const notifySeconds = Number(env["LOAD_NOTIFY_SECONDS"] ?? 10);
if (notifySeconds > 0 && options.engines.includes("postgres")) {
  const rows = await notifyCost({ rate: 2000, seconds: notifySeconds });
  if (rows) console.log(`\n${notifyTable(rows, notifySeconds)}`);
}
const problems = [...loadFailures(runs, options.storm), ...liveViewerFailures(liveRuns)];
if (problems.length) {
  console.log(`\nFAILED:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
