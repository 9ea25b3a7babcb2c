import type { Context } from "hono";
import type { z } from "zod";
import { ApiError, zodFieldErrors } from "./errors.ts";
import { containsNul, NUL_REFUSED } from "./nul.ts";

/** Reads a form-encoded (or multipart) body and validates it; field errors use the form's names. */
export async function formBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ApiError(415, "Content-Type must be application/x-www-form-urlencoded.");
  }
  let raw: Record<string, unknown>;
  try {
    raw = Object.fromEntries(
      Object.entries(await c.req.parseBody()).map(([k, v]) => [k, typeof v === "string" ? v : undefined]),
    );
  } catch {
    throw new ApiError(400, "The form could not be read.");
  }
  const withNul = Object.keys(raw).find((k) => containsNul(raw[k]) || containsNul(k));
  if (withNul !== undefined) throw new ApiError(400, [{ field: withNul, message: NUL_REFUSED }]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, zodFieldErrors(parsed.error));
  return parsed.data;
}
