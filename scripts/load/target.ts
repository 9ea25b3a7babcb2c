// The server side of `npm run load`, run as its own process so the load generator does not
// share its event loop: a Hono hello-world baseline and the portal's app in the same Node
// process, both served by @hono/node-server. It opens the database (LOAD_DATABASE_URL, else
// PGlite in LOAD_DATA_DIR), seeds the demo with a month of history and the load fixtures,
// then tells the parent (IPC) its ports and what it prepared; "stop" closes everything.
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { Server } from "node:http";
import { buildApp } from "../../server/app.ts";
import { parseConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { startRepeatingJob } from "../../server/core/repeatingJob.ts";
import { FOLD_EVERY_MS, foldBatchFor, foldRollups } from "../../server/data/rollupFold.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { seedDemo } from "../../server/seed/index.ts";
import {
  addLoadDevices,
  addLoadSessions,
  addMonthReport,
  addStormUsers,
  demoPushers,
  samplesSize,
} from "./fixtures.ts";

export interface TargetReady {
  kind: "pglite" | "postgres";
  baselinePort: number;
  appPort: number;
  pushers: Awaited<ReturnType<typeof demoPushers>>;
  samples: Awaited<ReturnType<typeof samplesSize>>;
  seedSeconds: number;
}

const env = process.env;
const BASE_PORT = Number(env["LOAD_PORT"] ?? 4580);
const HISTORY_DAYS = Number(env["LOAD_HISTORY_DAYS"] ?? 31);
const started = performance.now();

const database = await openDatabase({
  url: env["LOAD_DATABASE_URL"],
  dataDir: env["LOAD_DATABASE_URL"] ? undefined : env["LOAD_DATA_DIR"],
});
const now = new Date();
await seedDemo(database.db, { now, sampleDays: HISTORY_DAYS });
await fillHistory(database.db, { now, sampleDays: HISTORY_DAYS });
await addMonthReport(database.db);
await addStormUsers(database.db, Number(env["LOAD_USERS"] ?? 200));
await addLoadSessions(database.db, Number(env["LOAD_USERS"] ?? 200));
await addLoadDevices(database.db, Number(env["LOAD_DEVICES"] ?? 0));
// A running portal checkpointed its data long ago: without this the first checkpoint after the
// seed's million rows fell into the first ramp step (on PGlite it holds the one connection).
await database.db.execute(sql`checkpoint`);
const samples = await samplesSize(database.db);
const pushers = await demoPushers(database.db);

// TRUST_PROXY: the sign-in storm gives each sign-in its own X-Forwarded-For address, as
// visitors behind the production proxy have; the per-address limits stay as they are.
const config = parseConfig({
  DEMO: "1",
  SIMULATOR: "0",
  TRUST_PROXY: "1",
  SERVE_STATIC: "0",
  // The group commit's knobs, to measure other settings than the defaults.
  PUSH_BATCH_MAX: env["PUSH_BATCH_MAX"],
  PUSH_BATCH_LINGER_MS: env["PUSH_BATCH_LINGER_MS"],
  PUSH_BATCH_RUNNING: env["PUSH_BATCH_RUNNING"],
});
const app = buildApp({ db: database.db, config });
// The rollup fold runs as in server/index.ts: its work is part of what ingestion costs.
const stopFold = startRepeatingJob(
  "rollup fold",
  (at) => foldRollups(database.db, at, () => false, foldBatchFor(database.kind)),
  { intervalMs: FOLD_EVERY_MS },
);
const hello = new Hono().get("/", (c) => c.text("Hello Hono!"));

const listen = (fetch: (r: Request) => Response | Promise<Response>, port: number) =>
  new Promise<Server>((resolve) => {
    const server = serve({ fetch, port, hostname: "127.0.0.1" }, () => resolve(server as Server));
  });
const servers = [await listen(hello.fetch, BASE_PORT), await listen(app.fetch, BASE_PORT + 1)];
for (const s of servers) s.keepAliveTimeout = 65_000;

process.on("message", async (m) => {
  if (m === "settle") {
    // Before the ingestion ramp (scripts/load.ts): collect what the earlier phases left, so
    // V8's memory reducer does not compact a heap the sign-in storm grew in the middle of a
    // step (one stop of about 300 ms on this machine, measured with --trace-gc).
    globalThis.gc?.();
    process.send!("settled");
    return;
  }
  if (m !== "stop") return;
  stopFold();
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await database.close().catch(() => {});
  process.exit(0);
});
const ready: TargetReady = {
  kind: database.kind,
  baselinePort: BASE_PORT,
  appPort: BASE_PORT + 1,
  pushers,
  samples,
  seedSeconds: (performance.now() - started) / 1000,
};
process.send!(ready);
