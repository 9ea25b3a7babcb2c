import { existsSync, mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import { serve, type WebSocketServerLike } from "@hono/node-server";
import { WebSocketServer } from "ws";
import { buildApp } from "./app.ts";
import { banner, historyReporter } from "./banner.ts";
import { type Config, parseConfig, runtimeConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { openReadRouter } from "./data/readReplica.ts";
import { dialHost, isLoopbackListen, isWildcardAddress } from "./http/hostNames.ts";
import { fillHistory } from "./seed/history.ts";
import { isEmpty, seedDemo } from "./seed/index.ts";
import { startSimulator } from "./seed/simulator.ts";
import { refuseTestCost } from "./services/passwords.ts";
import { loadSite } from "./static/site.ts";
import { defaultLiveHub } from "./live.ts";
import { viewCounter } from "./data/reportLinks.ts";
import {
  startAlertWork,
  startAuditRetention,
  startAuditSealer,
  startDataRetention,
  startMailHousekeeping,
  startPartitionJob,
  startRepeatingJob,
} from "./core/repeatingJob.ts";
import { FOLD_EVERY_MS, foldBatchFor, foldRollups } from "./data/rollupFold.ts";
import { trimAuditTrail } from "./flows/auditRetention.ts";
import { sealAll } from "./data/auditSeal.ts";
import { fileAnchors, noAnchors } from "./services/auditAnchors.ts";
import { turnAuditTrailOff } from "./data/audit.ts";
import { dropAgedMonths } from "./flows/dataRetention.ts";
import { alertTask } from "./flows/alertWork.ts";
import { reportScheduleTask } from "./flows/reportSchedules.ts";
import { outboxStore } from "./data/outbox.ts";
import { createMailer } from "./services/mail.ts";
import { pageLinkOrigin } from "./http/links.ts";
import { purgeMail } from "./data/outbox.ts";
import { ensureSamplePartitions } from "./data/partitions.ts";
import { socketOrigin } from "../src/api/live.ts";
import type { Server as HttpServer } from "node:http";

// Serves the portal: one process with the API, the static build and (in demo mode) the simulator.
let config: Config;
try {
  config = parseConfig(process.env);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
// Every running portal hashes passwords at the product's cost; a lower one is for Vitest only.
refuseTestCost("start the portal");
if (!config.auditTrail) {
  turnAuditTrailOff();
  console.warn("AUDIT_TRAIL=0: this portal records no audit trail (meant for the proof's baseline only).");
}
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
  poolMax: config.databasePoolMax,
});
// Next months' sample partitions exist before their first reading (at start, then daily).
const stopPartitions = startPartitionJob((now) => ensureSamplePartitions(database.db, now));
// Mailed one-time links are cut out once expired, and mail is deleted after MAIL_RETENTION_DAYS.
const stopAuditRetention = startAuditRetention((now) => trimAuditTrail(database.db, now));
// Audit rows are written unsealed with their changes and chained here, moments later; the new
// heads are kept outside the database too (services/auditAnchors.ts).
const anchors =
  config.auditTrail && config.auditAnchorFile
    ? fileAnchors(config.auditAnchorFile, { everyMs: config.auditAnchorMs, log: true, key: config.auditKey })
    : noAnchors;
const stopAuditSealer = config.auditTrail
  ? startAuditSealer(() => sealAll(database.db, config.auditKey, false, anchors), {
      intervalMs: config.auditSealMs,
    })
  : () => {};
// Months of readings and rollups that no plan shows any more are dropped whole (daily, or off).
const stopDataRetention = config.dataRetentionIntervalMs
  ? startDataRetention(
      async (now) => {
        const run = await dropAgedMonths(database.db, now);
        if (run.dropped.length)
          console.log(JSON.stringify({ level: "info", what: "data retention", ...run }));
      },
      { intervalMs: config.dataRetentionIntervalMs },
    )
  : () => {};
const stopMailHousekeeping = startMailHousekeeping((now) =>
  purgeMail(database.db, now, config.mailRetentionDays),
);
if (config.demo && (await isEmpty(database.db))) {
  console.log("Seeding demo records (the year of report history follows in the background)...");
  await seedDemo(database.db, { now: new Date(), sampleDays: config.demoSampleDays });
}
const hasDist = existsSync(config.distDir);
if (config.serveStatic && !hasDist)
  console.warn(`No static build at ${config.distDir}; run npm run build. Serving the API only.`);
// A page's CSP names the websocket host in its ws:/wss: form too: https: does not cover wss:.
const connect = [
  ...Object.values(config.origins).filter(Boolean),
  ...(config.origins.ws ? [socketOrigin(config.origins.ws)] : []),
];
const site =
  config.serveStatic && hasDist ? loadSite(config.distDir, runtimeConfig(config), connect) : undefined;
const live = defaultLiveHub(database.db, () => new Date());
const views = viewCounter(database.db);
// Alerts: delays, silent devices, repeats, escalation and deliveries, on every instance.
const alertWork = startAlertWork(
  alertTask(
    {
      db: database.db,
      mailer: createMailer(outboxStore(database.db), config.smtpUrl, () => new Date()),
      origin: pageLinkOrigin(config),
      webhookPrivate: config.webhookPrivate,
      auditKey: config.auditKey,
    },
    { wait: false },
  ),
  { intervalMs: config.alertTickMs },
);
// Scheduled reports: due runs claimed and mailed by whichever instance comes first.
const stopReportSchedules = startRepeatingJob(
  "report schedules",
  reportScheduleTask({
    db: database.db,
    mailer: createMailer(outboxStore(database.db), config.smtpUrl, () => new Date()),
    origin: pageLinkOrigin(config),
    auditKey: config.auditKey,
  }),
  { intervalMs: config.reportScheduleTickMs },
);
// The public reads on DATABASE_READ_URL's replica while it is fresh (the primary without one).
const reads = await openReadRouter(database.db, {
  url: config.databaseReadUrl,
  primaryUrl: config.databaseUrl,
  maxLagSeconds: config.databaseReadMaxLagSeconds,
  poolMax: config.databasePoolMax,
});
reads.start();
const app = buildApp({ db: database.db, config, site, live, views, alertWork, reads, anchors });
// Live readings: upgrades go through the app (host and origin checks, GET /ws) to this server.
// (ws types noServer as optional, node-server's as required: the same object.)
const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
const websocket = { server: wss as unknown as WebSocketServerLike };

let stopping = false;

// Pushes write no rollup; every level is folded from the samples 10 to 25 minutes behind.
const stopRollupFold = startRepeatingJob(
  "rollup fold",
  (now) => foldRollups(database.db, now, () => stopping, foldBatchFor(database.kind)),
  { intervalMs: FOLD_EVERY_MS },
);

/**
 * While stopping, every answer says Connection: close, so a keep-alive client opens its next
 * request elsewhere instead of holding this process open (server.close() waits for every
 * connection, and Node keeps serving an open keep-alive connection after close()).
 */
async function fetchWhileUp(req: Request, env: unknown): Promise<Response> {
  const res = await app.fetch(req, env as never);
  if (!stopping) return res;
  try {
    res.headers.set("connection", "close");
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set("connection", "close");
    return copy;
  }
}

const server = serve({ fetch: fetchWhileUp, port: config.port, hostname: config.host, websocket }, (info) => {
  const local = `http://localhost:${info.port}`;
  const origin = config.origins.public || config.origins.account || local;
  // /dev/mailbox answers loopback clients only: reachable when the server listens on loopback.
  const listensLocally = isLoopbackListen(config.host) || isWildcardAddress(config.host);
  const demo = !config.demo ? "off" : config.demoLocalOnly ? "local" : "shared";
  console.log(
    banner({
      origin,
      demo,
      smtp: Boolean(config.smtpUrl),
      mailbox: listensLocally ? local : null,
      requestLog: config.logRequests,
    }),
  );
  if (config.demo) history = fillDemoHistory();
  if (config.simulator) {
    const url = `http://${dialHost(config.host)}:${info.port}`;
    simulator = startSimulator(database.db, url, config.simulatorIntervalSeconds);
  }
});
// Idle keep-alive sockets stay open longer than clients and proxies reuse them (Node closes
// them after 5 s, and a request sent on a socket just closing fails with ECONNRESET).
(server as HttpServer).keepAliveTimeout = 65_000;
(server as HttpServer).headersTimeout = 66_000;
let simulator: ReturnType<typeof startSimulator> | undefined;
let history: Promise<void> = Promise.resolve();

/** The demo's year of report history is written while the portal already answers. */
async function fillDemoHistory() {
  const report = historyReporter(process.stdout);
  try {
    await fillHistory(database.db, {
      now: new Date(),
      sampleDays: config.demoSampleDays,
      stopped: () => stopping,
      onProgress: report.progress,
      // PGlite (single-user Postgres) never checkpoints by itself; PostgreSQL does.
      checkpoint: database.kind === "pglite" ? () => database.db.execute(sql`checkpoint`) : undefined,
    });
    if (!stopping) report.done(config.demoSampleDays);
  } catch (e) {
    if (!stopping) console.error(JSON.stringify({ level: "error", what: "demo history", error: String(e) }));
  }
}

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing open requests, then stopping.`);
  simulator?.stop();
  stopPartitions();
  stopMailHousekeeping();
  stopAuditRetention();
  stopAuditSealer();
  stopDataRetention();
  stopRollupFold();
  alertWork.stop();
  stopReportSchedules();
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  // The listener closes first: a new connection is refused at once (the client goes elsewhere)
  // instead of being accepted and then cut; idle keep-alive connections close now, busy ones
  // after their answer (Connection: close, fetchWhileUp).
  server.close(async () => {
    await history;
    await views.flush();
    // What the last requests wrote is chained now, not at the next start.
    if (config.auditTrail) await sealAll(database.db, config.auditKey, true, anchors).catch(() => {});
    await anchors.close();
    if (views.pending)
      console.warn(
        JSON.stringify({ level: "warn", what: "report views lost at shutdown", views: views.pending }),
      );
    await reads.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  });
  // Open sockets would hold server.close() open: they are told to reconnect (to another instance).
  await live.close().catch(() => {});
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
