import type { Context } from "hono";
import type { ErrorStatus, FieldError } from "../core/errors.ts";

/** Sends the spec's failure `{success:false, data:[{field,message}]}` with the given status. */
export function errorResponse(c: Context, status: ErrorStatus, errors: FieldError[]) {
  return c.json({ success: false, data: errors }, status);
}
