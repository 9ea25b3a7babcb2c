import type { Context } from "hono";
import { ApiError, UNEXPECTED } from "../core/errors.ts";
import { RetryLater } from "../core/walkGate.ts";
import { databaseAwayResponse, errorResponse, isDatabaseAway } from "./errors.ts";
import { routeOf } from "./requestLog.ts";

export const BODY_CUT_OFF = "The request body was cut off before its end.";

/** Node's error for a request whose client closed the connection while its body was read. */
function isClientAbort(err: Error): boolean {
  return [err, err.cause].some(
    (e) => e instanceof Error && e.message === "aborted" && (e as { code?: unknown }).code === "ECONNRESET",
  );
}

/**
 * The app's last word on a thrown error: an ApiError's own answer; the database being away a
 * 503 and one short warn line (no stack: the failed query's text and parameters stay out of
 * the log); anything else the spec's 500 and an error line with the route's pattern (paths
 * carry order tokens and report hashes).
 */
export function answerError(err: Error, c: Context) {
  if (err instanceof RetryLater) c.header("Retry-After", String(err.retryAfterSeconds));
  if (err instanceof ApiError) return errorResponse(c, err.status, err.errors);
  const line = { requestId: c.get("requestId"), route: routeOf(c) };
  // Checked first: Node reports a body cut off by its client as ECONNRESET, a code that also
  // means a lost database connection; anyone could otherwise fake "database away" alerts.
  if (isClientAbort(err)) return errorResponse(c, 400, [{ field: null, message: BODY_CUT_OFF }]);
  if (isDatabaseAway(err)) {
    const cause = err.cause instanceof Error ? err.cause : err;
    console.warn(JSON.stringify({ level: "warn", ...line, what: "database away", error: cause.message }));
    return databaseAwayResponse(c);
  }
  console.error(JSON.stringify({ level: "error", ...line, error: String(err?.stack ?? err) }));
  return errorResponse(c, 500, [{ field: null, message: UNEXPECTED }]);
}
