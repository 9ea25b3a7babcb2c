import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { jsonProblem } from "./nul.ts";

/** The spec's error shape: a list of field/message entries (field null for the whole form). */
export interface FieldError {
  field: string | null;
  message: string;
}

/** An expected failure with a status and the messages to show; never a 500. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: FieldError[];
  constructor(status: ContentfulStatusCode, errors: FieldError[] | string) {
    const list = typeof errors === "string" ? [{ field: null, message: errors }] : errors;
    super(list[0]?.message ?? "Error");
    this.status = status;
    this.errors = list;
  }
}

export const UNEXPECTED = "Unexpected error.";
export const NOT_FOUND = "Not found.";

/** Sends `{success:false, data:[{field,message}]}` with the given status. */
export function errorResponse(c: Context, status: ContentfulStatusCode, errors: FieldError[]) {
  return c.json({ success: false, data: errors }, status);
}

/** zod issues to the spec's field list; the field is the dotted path. */
export function zodFieldErrors(error: z.core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join(".") : null,
    message: issue.message,
  }));
}

/** Validates a value already read and checked; zod and zod/mini schemas (the src/api contracts) alike. */
export function validate<T extends z.core.$ZodType>(schema: T, raw: unknown): z.output<T> {
  const parsed = z.safeParse(schema, raw);
  if (!parsed.success) throw new ApiError(400, zodFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * Reads a JSON body that must be application/json, refuses nesting deeper than MAX_DEPTH and
 * U+0000 (walked without recursion, before anything else looks at it), then validates it.
 */
export async function jsonBody<T extends z.core.$ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(415, "Content-Type must be application/json.");
  }
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiError(400, "The request body is not valid JSON.");
  }
  const problem = jsonProblem(raw);
  if (problem) throw new ApiError(400, problem);
  return validate(schema, raw);
}
