// The operations proof on one database: a server with its request log and metrics token
// takes counted traffic; its /metrics and its log are checked against that traffic; then its
// database goes through a backup and a restore into a fresh one, every table compared.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { backupRoundTrip, type BackupCheck } from "./opsBackup.ts";
import { checkLog, type LogCheck } from "./opsLog.ts";
import { checkMetrics, type MetricsCheck } from "./opsMetrics.ts";
import { knownTraffic, type Sent } from "./opsTraffic.ts";
import { preparePayTargets } from "./paymentTargets.ts";
import { pushDevices } from "./pushes.ts";
import { ServerProcess } from "./server.ts";
import type { Target } from "./target.ts";
import { readPaths } from "./traffic.ts";
import { PUBLIC_API } from "../../src/api/paths.ts";
import { pushReadings } from "../../src/api/readings.ts";

/** Public device pages watched live while the metrics are read. */
const LIVE_CLIENTS = 2;

export interface OperationsResult {
  database: Target["name"];
  sent: Sent;
  metrics: MetricsCheck;
  log: LogCheck;
  backup: BackupCheck;
}

/** Seeds the demo through a first start, then reads what the traffic needs from the database. */
async function prepare(server: ServerProcess, target: Target) {
  await server.start();
  await server.stop();
  const setup = await target.open();
  try {
    const devices = await pushDevices(setup.db);
    return {
      device: devices.find((d) => d.channels.length > 0)!,
      pay: await preparePayTargets(setup.db, 3),
      hashes: (await readPaths(setup.db)).hashes.slice(0, LIVE_CLIENTS),
    };
  } finally {
    await setup.close();
  }
}

export async function operationsRun(target: Target, port: number, work: string): Promise<OperationsResult> {
  const token = randomBytes(24).toString("base64url");
  const logFile = `${work}/${target.name}-operations.log`;
  // A day of the demo's minute samples: the round trip carries partitioned samples too.
  const env = { ...target.env, LOG_REQUESTS: "1", METRICS_TOKEN: token, DEMO_SAMPLE_DAYS: "1" };
  const server = new ServerProcess(port, env, logFile);
  try {
    const prep = await prepare(server, target);
    // A new process: its counters start at zero, so they must equal what is sent to it.
    await server.start();
    const sent = await knownTraffic(server.url, prep);
    const secrets = { ...sent.secrets, anywhere: { ...sent.secrets.anywhere, "metrics token": token } };
    const metrics = await checkMetrics(server.url, token, prep.hashes, {
      ...secrets.anywhere,
      ...secrets.inRequests,
    });
    await server.stop();
    await server.closeLog();
    const log = checkLog(readFileSync(logFile, "utf8"), secrets);
    const backup = await backupRoundTrip(target, `${work}/backup`);
    return { database: target.name, sent, metrics, log, backup };
  } finally {
    await server.stop().catch(() => {});
    server.close();
  }
}

/** Every figure that must match, as the problems it makes when it does not. */
export function operationsFailures(r: OperationsResult): string[] {
  const { sent, metrics: m, log, backup: b } = r;
  const lines = (key: string) => log.byRoute[key] ?? 0;
  const push = `POST ${pushReadings.path}`;
  const access = m.access;
  const checks: [string, boolean][] = [
    [`unexpected answers: ${sent.unexpected.join("; ")}`, sent.unexpected.length === 0],
    [
      `/metrics access ${JSON.stringify(access)} (want 200 here, 404 elsewhere and with a wrong token, 200 with the token)`,
      access.local === 200 && access.elsewhere === 404 && access.wrongToken === 404 && access.token === 200,
    ],
    [`public order reads counted ${m.orders} of ${sent.orders}`, m.orders === sent.orders],
    [
      `public order durations counted ${m.orderDurations} of ${sent.orders}`,
      m.orderDurations === sent.orders,
    ],
    [
      `pushes accepted counted ${m.pushesAccepted} of ${sent.pushesAccepted}`,
      m.pushesAccepted === sent.pushesAccepted,
    ],
    [
      `pushes refused counted ${m.pushesRefused} of ${sent.pushesRefused}`,
      m.pushesRefused === sent.pushesRefused,
    ],
    [`charges counted ${m.charged} of ${sent.charged}`, m.charged === sent.charged],
    [`declines counted ${m.declined} of ${sent.declined}`, m.declined === sent.declined],
    [
      `live clients: ${m.liveOpened} subscribed of ${LIVE_CLIENTS}, gauge ${m.liveGauge}, ${m.liveGaugeAfter} after they closed`,
      m.liveOpened === LIVE_CLIENTS && m.liveGauge === LIVE_CLIENTS && m.liveGaugeAfter === 0,
    ],
    [`pool gauge missing on PostgreSQL`, r.database === "PGlite" || (m.poolTotal ?? 0) > 0],
    [`secrets in the metrics: ${m.secretsFound.join(", ")}`, m.secretsFound.length === 0],
    [
      `request log lines ${log.requests} for ${sent.requests + m.requests} requests`,
      log.requests === sent.requests + m.requests,
    ],
    [
      `request log lines not well formed: ${log.requests - log.wellFormed} (+${log.malformed} unreadable, ${log.duplicateIds} ids twice)`,
      log.wellFormed === log.requests && log.malformed === 0 && log.duplicateIds === 0,
    ],
    [
      `request log by route: ${JSON.stringify(log.byRoute)}`,
      lines(`GET ${PUBLIC_API.order} 200`) === sent.orders &&
        lines(`${push} 200`) === sent.pushesAccepted &&
        lines(`${push} 401`) === sent.pushesRefused &&
        !Object.keys(log.byRoute).some((k) => k.includes(" unmatched ")),
    ],
    [`secrets in the log: ${log.secretsFound.join(", ")}`, log.secretsFound.length === 0],
    [
      `backup round trip: tables differing ${b.differing.join(", ")}`,
      b.differing.length === 0 && b.tables > 0,
    ],
  ];
  return checks.filter(([, ok]) => !ok).map(([what]) => `${r.database} operations: ${what}`);
}
