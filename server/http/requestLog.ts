import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { recordRequest } from "./metrics.ts";

/*
 * Every request is timed once, counted in the metrics and (with LOG_REQUESTS) written as one
 * JSON line. The line names the route's pattern, never the URL: paths and query strings carry
 * order tokens, reset and validation tokens and report hashes, and the log holds no request
 * body or header (passwords, card numbers, cookies and session ids never reach it).
 */

/** One request as the log writes it. */
export interface RequestLine {
  time: string;
  level: "info";
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

/** Where lines go: stdout, one JSON object a line, for the process manager to collect. */
export type LineSink = (line: string) => void;

/**
 * stdout, the lines of one turn of the event loop written together: a write to a file or a
 * pipe is a system call that blocks the loop, and at thousands of requests a second one per
 * line was a fifth of a cached read's cost. Whatever is left is written when the process exits.
 */
function batchedStdout(): LineSink {
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    const text = pending.join("");
    pending = [];
    process.stdout.write(text);
  };
  process.on("exit", flush);
  return (line) => {
    if (!pending.length) setImmediate(flush);
    pending.push(line);
  };
}
const stdout = batchedStdout();

/**
 * The pattern of the route that answered ("/api/v1/orders/:orderId", "*" for the static site,
 * a middleware's pattern when it refused the request): a bounded set, free of ids and tokens.
 */
export function routeOf(c: Context): string {
  try {
    return routePath(c) || "unmatched";
  } catch {
    return "unmatched";
  }
}

/** The last millisecond's ISO time: thousands of lines a second share a few hundred. */
let lastMs = -1;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * One request's line, written out field by field in RequestLine's order (a generic
 * JSON.stringify of an object per request costs more at thousands a second); each text is
 * still JSON-escaped.
 */
export function lineOf(requestId: string, method: string, route: string, status: number, ms: number): string {
  const time = isoNow();
  const rounded = Math.round(ms * 10) / 10;
  const text = JSON.stringify;
  return `{"time":"${time}","level":"info","requestId":${text(requestId)},"method":${text(method)},"route":${text(route)},"status":${status},"ms":${rounded}}\n`;
}

/** Times every request; inside answerHeaders, so the line carries the id echoed in X-Request-Id. */
export function observeRequests(
  options: { logRequests: boolean },
  sink: LineSink = stdout,
): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    const route = routeOf(c);
    const status = c.res.status;
    recordRequest(c.req.method, route, status, ms / 1000);
    if (!options.logRequests) return;
    sink(lineOf(c.get("requestId"), c.req.method, route, status, ms));
  };
}
