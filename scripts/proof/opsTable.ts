import type { OperationsResult } from "./operations.ts";
import { markdownTable } from "./table.ts";

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const s = (ms: number) => (ms / 1000).toFixed(1);

/** The operations results, one row per database. */
export function operationsTable(results: OperationsResult[]): string {
  return markdownTable(
    [
      "operations",
      "Backup → restore: tables / rows",
      "Tables equal (rows and md5)",
      "Backup size",
      "Backup / restore (s)",
      "/metrics: here / elsewhere / wrong token / token",
      "Order reads sent / counted",
      "Pushes accepted, refused: sent / counted",
      "Charged, declined: sent / counted",
      "Live clients open / gauge",
      "Pool connections",
      "Request log lines / requests / well formed",
      "Secrets in the log or metrics",
    ],
    results.map(({ database, sent, metrics: m, log, backup: b }) => [
      database,
      `${b.tables} / ${b.rows}`,
      `${b.equal} of ${b.tables}`,
      mb(b.bytes),
      `${s(b.backupMs)} / ${s(b.restoreMs)}`,
      `${m.access.local} / ${m.access.elsewhere} / ${m.access.wrongToken} / ${m.access.token}`,
      `${sent.orders} / ${m.orders}`,
      `${sent.pushesAccepted}, ${sent.pushesRefused} / ${m.pushesAccepted}, ${m.pushesRefused}`,
      `${sent.charged}, ${sent.declined} / ${m.charged}, ${m.declined}`,
      `${m.liveOpened} / ${m.liveGauge} (${m.liveGaugeAfter} once closed)`,
      m.poolTotal === null ? "— (one in-process connection)" : String(m.poolTotal),
      `${log.requests} / ${sent.requests + m.requests} / ${log.wellFormed}`,
      `${log.secretsFound.length + m.secretsFound.length} of ${Object.keys(sent.secrets.anywhere).length + Object.keys(sent.secrets.inRequests).length + 1}`,
    ]),
  );
}
