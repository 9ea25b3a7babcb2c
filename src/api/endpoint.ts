import * as z from "zod/mini";

/**
 * One call of the portal's API, as browser and server both see it: where it lives, how its
 * input travels, what `data` comes back. Stores call the API only through these; route
 * handlers validate with `request` and reply with values of the `response` type, so a change
 * of shape breaks the type check on both sides.
 */
export interface Endpoint {
  method: "get" | "post" | "patch" | "delete";
  /** Full path; `:name` segments are filled from `params`. */
  path: string;
  /** The configured host the browser sends it to (runtime config: apiBase, webBase, accountBase). */
  host: "api" | "web" | "account";
  /** How the input travels: JSON body, form-encoded body, the query string, or nothing. */
  body: "json" | "form" | "query" | "none";
  request: z.ZodMiniType | undefined;
  /** The `data` of the success envelope `{success: true, data}`. */
  response: z.ZodMiniType;
  summary: string;
}

/** Declares an endpoint, keeping its literal types. */
export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

/** What the browser sends (before the server's trimming and defaults). */
export type RequestOf<E extends Endpoint> = E["request"] extends z.ZodMiniType
  ? z.input<E["request"]>
  : undefined;
/** What the handler receives after validation. */
export type InputOf<E extends Endpoint> = E["request"] extends z.ZodMiniType
  ? z.output<E["request"]>
  : undefined;
/** The `data` of a successful answer. */
export type ResponseOf<E extends Endpoint> = z.output<E["response"]>;

/** The path with its `:name` segments filled in (each encoded). */
export function pathOf(e: Pick<Endpoint, "path">, params: Record<string, string | number> = {}): string {
  return e.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${e.path}`);
    return encodeURIComponent(String(value));
  });
}
