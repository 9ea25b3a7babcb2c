import type { Context } from "hono";
import type { ErrorStatus } from "../core/errors.ts";
import { errorResponse } from "./errors.ts";

/** A refusal before any route runs: plain text for a page a browser asked for, the error list otherwise. */
export function refuse(c: Context, status: ErrorStatus, message: string) {
  const page = c.req.method === "GET" && /\btext\/html\b/.test(c.req.header("accept") ?? "");
  return page ? c.text(message, status) : errorResponse(c, status, [{ field: null, message }]);
}
