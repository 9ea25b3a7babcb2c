import type { Context } from "hono";
import { z } from "zod";
import { ApiError, type FieldError } from "../core/errors.ts";
import type { Endpoint, InputOf } from "../../src/api/endpoint.ts";
import { ID_RANGE, idField } from "../../src/api/fields.ts";
import { hasRefusedCharacter, jsonProblem, NUL_REFUSED } from "./nul.ts";

/** Our forms have a handful of fields; a body with hundreds is not one of them. */
export const MAX_FORM_FIELDS = 100;
export const TOO_MANY_FIELDS = "The form has too many fields.";

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
  // application/json, with parameters or without (not application/json-patch+json and kin).
  if (!/^application\/json\s*(?:;|$)/i.test(type)) {
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
  const refused = entries.find(
    ([k, v]) => hasRefusedCharacter(k) || (typeof v === "string" && hasRefusedCharacter(v)),
  );
  if (refused) throw new ApiError(400, [{ field: refused[0], message: NUL_REFUSED }]);
  return validate(schema, raw);
}

/**
 * The first query field whose name or value is broken text: a %-escape that is not UTF-8
 * ('Kitchen%C3', which Hono keeps as the literal '%C3') or a refused character once decoded.
 */
function brokenQueryField(url: string): string | undefined {
  const at = url.indexOf("?");
  if (at < 0) return undefined;
  for (const pair of url.slice(at + 1).split("&")) {
    const [name = "", value = ""] = pair.split("=", 2).map((p) => p.replace(/\+/g, " "));
    try {
      const key = decodeURIComponent(name);
      if (hasRefusedCharacter(key) || hasRefusedCharacter(decodeURIComponent(value))) return key;
    } catch {
      return name;
    }
  }
  return undefined;
}

/**
 * The endpoint's input, read the way its contract says it travels (JSON body, form body or
 * query string) and validated with its request schema; undefined when it takes none.
 */
export async function inputOf<E extends Endpoint>(c: Context, endpoint: E): Promise<InputOf<E>> {
  const schema = endpoint.request;
  if (!schema) return undefined as InputOf<E>;
  switch (endpoint.body) {
    case "json":
      return (await jsonBody(c, schema)) as InputOf<E>;
    case "form":
      return (await formBody(c, schema)) as InputOf<E>;
    case "query": {
      const bad = brokenQueryField(c.req.url);
      if (bad !== undefined) throw new ApiError(400, [{ field: bad, message: NUL_REFUSED }]);
      return validate(schema, c.req.query()) as InputOf<E>;
    }
    case "none":
      return undefined as InputOf<E>;
  }
}

/**
 * A record id from the path (`:id`): digits only, then the contract's int4 range, so "1e3",
 * "0x10", "-1" and 2147483648 are a 400 on that field, never a database error.
 */
export function idParam(c: Context, name = "id"): number {
  const text = c.req.param(name) ?? "";
  if (!/^\d{1,10}$/.test(text)) throw new ApiError(400, [{ field: name, message: ID_RANGE }]);
  const parsed = z.safeParse(idField, Number(text));
  if (!parsed.success) throw new ApiError(400, [{ field: name, message: ID_RANGE }]);
  return parsed.data;
}
