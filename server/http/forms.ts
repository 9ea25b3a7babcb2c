import type { Context } from "hono";
import type { z } from "zod";
import { ApiError, validate } from "./errors.ts";
import { hasNul, NUL_REFUSED } from "./nul.ts";

/** Our forms have a handful of fields; a body with hundreds is not one of them. */
export const MAX_FORM_FIELDS = 100;
export const TOO_MANY_FIELDS = "The form has too many fields.";

/**
 * Reads a form-encoded (or multipart) body and validates it; field errors use the form's
 * names. The form stays flat (no `a[b]` or `a.b` nesting is expanded) and only text fields
 * count: files and repeated `name[]` lists read as absent.
 */
export async function formBody<T extends z.core.$ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ApiError(415, "Content-Type must be application/x-www-form-urlencoded.");
  }
  let entries: [string, unknown][];
  try {
    entries = Object.entries(await c.req.parseBody());
  } catch {
    throw new ApiError(400, "The form could not be read.");
  }
  if (entries.length > MAX_FORM_FIELDS) throw new ApiError(400, TOO_MANY_FIELDS);
  const raw = Object.fromEntries(entries.map(([k, v]) => [k, typeof v === "string" ? v : undefined]));
  const withNul = entries.find(([k, v]) => hasNul(k) || (typeof v === "string" && hasNul(v)));
  if (withNul) throw new ApiError(400, [{ field: withNul[0], message: NUL_REFUSED }]);
  return validate(schema, raw);
}
