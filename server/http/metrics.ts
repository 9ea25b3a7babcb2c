import type { MiddlewareHandler } from "hono";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/*
 * The process's Prometheus metrics (GET /metrics, server/routes/metrics.ts). Counters are per
 * process, as Prometheus expects: each instance is scraped on its own and summed there.
 * Labels are bounded sets only: a route is its registered pattern ("/api/v1/orders/:orderId"),
 * never the URL, whose ids and tokens would make a new series per request and leak secrets.
 */

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const requests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

const durations = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from the request to its answer's headers, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const pushes = new Counter({
  name: "device_pushes_total",
  help: "Device pushes answered: accepted (stored whole) or refused (nothing stored), by status.",
  labelNames: ["outcome", "status"] as const,
  registers: [registry],
});

const charges = new Counter({
  name: "payment_charges_total",
  help: "Card charges sent to the gateway, by outcome: charged, declined, or no_answer (left pending; a retry finishes it).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

// Every outcome is shown from the start (at 0), so a rate or an alert on it has a series to read.
for (const outcome of ["charged", "declined", "no_answer"]) charges.inc({ outcome }, 0);
for (const outcome of ["accepted", "refused"])
  pushes.inc({ outcome, status: outcome === "accepted" ? "200" : "401" }, 0);

/** HTTP methods as labels: anything else (a client may send any token) counts as OTHER. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts one answered request; `route` must be a registered pattern, never a URL. */
export function recordRequest(method: string, route: string, status: number, seconds: number) {
  const labels = { method: METHODS.has(method) ? method : "OTHER", route, status: String(status) };
  requests.inc(labels);
  durations.observe(labels, seconds);
}

/** Middleware of the push route: counts each push by how it was answered (errors included). */
export const countPushes: MiddlewareHandler = async (c, next) => {
  await next();
  const status = c.res.status;
  pushes.inc({ outcome: status < 300 ? "accepted" : "refused", status: String(status) });
};

/** Counts one gateway answer: a charge, a refusal, or none at all (null). */
export function countCharge(result: { ok: boolean } | null) {
  charges.inc({ outcome: !result ? "no_answer" : result.ok ? "charged" : "declined" });
}

/** Pool figures of node-postgres (absent on PGlite, which is one connection in the process). */
export interface PoolFigures {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** What one app adds to the process's metrics: its live sockets and its database pool. */
export interface AppGauges {
  liveClients(): number;
  /** Live session checks that failed (the watcher kept): services/liveHub.ts. */
  liveRecheckErrors?(): number;
  pool(): PoolFigures | null;
}

/** A registry of one app's gauges, read when scraped. */
export function appRegistry(read: AppGauges): Registry {
  const own = new Registry();
  const live = new Gauge({
    name: "live_clients",
    help: "WebSocket subscriptions to live readings on this instance.",
    registers: [],
    collect() {
      live.set(read.liveClients());
    },
  });
  own.registerMetric(live);
  const recheckErrors = new Counter({
    name: "live_recheck_errors_total",
    help: "Session checks of live watchers that failed (database away); the watcher was kept.",
    registers: [own],
    collect() {
      recheckErrors.reset();
      recheckErrors.inc(read.liveRecheckErrors?.() ?? 0);
    },
  });
  const pool = new Gauge({
    name: "db_pool_connections",
    help: "PostgreSQL pool connections by state: total, idle, and waiting (requests queued for a connection).",
    labelNames: ["state"] as const,
    registers: [own],
    collect() {
      const figures = read.pool();
      if (!figures) return;
      pool.set({ state: "total" }, figures.totalCount);
      pool.set({ state: "idle" }, figures.idleCount);
      pool.set({ state: "waiting" }, figures.waitingCount);
    },
  });
  return own;
}

/** The process's metrics with one app's gauges, in Prometheus text format. */
export async function metricsText(own: Registry): Promise<{ text: string; contentType: string }> {
  const merged = Registry.merge([registry, own]);
  return { text: await merged.metrics(), contentType: registry.contentType };
}
