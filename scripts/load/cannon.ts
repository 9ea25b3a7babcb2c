import autocannon from "autocannon";
import { createRequire } from "node:module";

/**
 * autocannon keeps every answer's body as a string (`req.body += data` in its pipelined
 * requests queue) whether or not a check reads it; we set none (no expectBody, verifyBody or
 * onResponse). Profiled on the month's chart data, that conversion was half the generator's
 * time, so the row measured autocannon rather than the server. Dropping the unread bodies
 * leaves bytes, latencies and status codes counted as before. LOAD_KEEP_BODIES=1 measures
 * with autocannon as shipped. Worker threads (LOAD_WORKERS) load their own copy, unpatched.
 */
export const keepBodies = process.env["LOAD_KEEP_BODIES"] === "1";
if (!keepBodies) {
  const queue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as {
    prototype: { addBody: (data: Buffer) => void };
  };
  queue.prototype.addBody = () => {};
}

/** One measured call: throughput, latency percentiles and everything that was not a 2xx. */
export interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors and timeouts, plus answers outside 2xx. */
  errors: number;
  statuses: string;
}

export interface Shot {
  name: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Builds each request's body (a push carries its own reading times). */
  body?: () => string;
  /**
   * Headers of each request in turn beside `headers` (many people's session cookies), built
   * once: autocannon cycles through a list of ready requests. Building each request in a
   * function made the generator, not the server, the limit of the row (the server at 72 %
   * of a core on 2026-11-28).
   */
  headerCycle?: Record<string, string>[];
}

/** autocannon splits the connections evenly over its workers, dropping the remainder. */
function checkedWorkers(connections: number, workers: number) {
  if (workers && connections % workers)
    console.warn(`LOAD_WORKERS=${workers}: ${connections} connections do not divide evenly; using 1 thread`);
  return workers && connections % workers === 0 ? workers : 0;
}

export const settings = {
  connections: Number(process.env["LOAD_CONNECTIONS"] ?? 50),
  seconds: Number(process.env["LOAD_SECONDS"] ?? 10),
  /** Worker threads of the generator (0: its main thread); only for calls built without functions. */
  workers: checkedWorkers(
    Number(process.env["LOAD_CONNECTIONS"] ?? 50),
    Number(process.env["LOAD_WORKERS"] ?? 0),
  ),
};

/** Runs autocannon against one call; `running` receives the instance (to stop it early). */
export async function fire(
  shot: Shot,
  opts: { connections?: number; seconds?: number; running?: (i: autocannon.Instance) => void } = {},
): Promise<Measured> {
  const { body, headerCycle } = shot;
  // Without a callback autocannon returns its instance, which is also a promise of the result.
  const instance = autocannon({
    url: shot.url,
    connections: opts.connections ?? settings.connections,
    duration: opts.seconds ?? settings.seconds,
    method: shot.method ?? "GET",
    headers: shot.headers ?? {},
    // Functions cannot cross into worker threads, and workers cannot be stopped early, so calls
    // that build each request or are stopped by the caller stay on one thread.
    ...(settings.workers && !body && !opts.running ? { workers: settings.workers } : {}),
    requests: body
      ? [{ setupRequest: (r) => ({ ...r, body: body() }) }]
      : (headerCycle ?? [{}]).map((headers) => ({ headers })),
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  opts.running?.(instance);
  const r = await instance;
  const codes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${(s as { count: number }).count}`)
    .join(" ");
  return {
    name: shot.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
    statuses: codes,
  };
}
