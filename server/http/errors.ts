import type { Context } from "hono";
import type { ErrorStatus, FieldError } from "../core/errors.ts";

export const DATABASE_AWAY = "The service is temporarily unavailable. Try again shortly.";
/** Seconds a client waits before trying again while the database is away. */
const RETRY_AFTER_SECONDS = "5";

/** Sends the spec's failure `{success:false, data:[{field,message}]}` with the given status. */
export function errorResponse(c: Context, status: ErrorStatus, errors: FieldError[]) {
  return c.json({ success: false, data: errors }, status);
}

/**
 * 503 with a Retry-After, for load balancers and browsers alike; never a stack. The request
 * was fine and will work again by itself once the database answers (server/http/onError.ts).
 */
export function databaseAwayResponse(c: Context) {
  c.header("Retry-After", RETRY_AFTER_SECONDS);
  return c.json({ success: false, data: [{ field: null, message: DATABASE_AWAY }] }, 503);
}

/** Socket failures on the way to the database (Node's codes). */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT"]);
/** SQLSTATE 57P01-03: the server is shutting down, crashed or is starting (class 08 below). */
const SHUTDOWN_STATES = new Set(["57P01", "57P02", "57P03"]);
/** node-postgres and its pool say these in words, without a code (a message's start only:
 * Drizzle's wrapper quotes the query's parameters, which may be anyone's text). */
const AWAY_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
];

/**
 * Whether an error (or what it wraps: Drizzle puts the driver's error in `cause`, a failed
 * dual-stack connect is an AggregateError) is the database being unreachable rather than a
 * query's own failure such as a unique violation.
 */
export function isDatabaseAway(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && isAwayCode(code)) return true;
  if (AWAY_MESSAGES.some((m) => err.message.startsWith(m))) return true;
  const inner = err instanceof AggregateError ? err.errors : [];
  return [err.cause, ...inner].some((e) => isDatabaseAway(e, depth + 1));
}

function isAwayCode(code: string): boolean {
  return SOCKET_CODES.has(code) || SHUTDOWN_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}
