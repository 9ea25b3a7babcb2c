import { toJSONSchema } from "zod";
import { buildApp } from "../../server/app.ts";
import type { Endpoint } from "../../src/api/endpoint.ts";
import { ENDPOINTS } from "../../src/api/index.ts";
import { testConfig } from "./helpers.ts";
import { examplePath } from "./fuzzValues.ts";

/*
 * Requests built from the src/api contracts, for the tests that walk every route (access
 * table, bad input): a route's endpoint, a plausible example of its input, and its id fields.
 */

export type JsonSchema = { [key: string]: any };
export interface Route {
  method: string;
  path: string;
  /** "METHOD /path" as Hono registers it and the access table names it. */
  key: string;
}

/**
 * Every route the app mounts, middleware and catch-alls left out, in demo mode and not (the
 * dev mailbox exists only in demo mode).
 */
export function mountedRoutes(): Route[] {
  const keys = new Set<string>();
  for (const env of [{}, { DEMO: "1" }]) {
    const app = buildApp({ db: {} as never, config: testConfig(env) });
    for (const { method, path } of app.routes)
      if (method !== "ALL" && !path.includes("*")) keys.add(`${method} ${path}`);
  }
  return [...keys].sort().map((key) => {
    const [method, path] = key.split(" ") as [string, string];
    return { method, path, key };
  });
}

/** The contract of a route, when it has one. */
export function endpointOf(route: Pick<Route, "method" | "path">): Endpoint | undefined {
  return ENDPOINTS.find(({ endpoint: e }) => e.method === route.method.toLowerCase() && e.path === route.path)
    ?.endpoint;
}

/** The input a route takes, as JSON Schema (what the browser sends). */
export function requestSchema(e: Endpoint | undefined): JsonSchema | undefined {
  return e?.request ? toJSONSchema(e.request, { io: "input", unrepresentable: "any" }) : undefined;
}

/** Leave the (optional) field out of the example. */
const OMIT = Symbol("omit");

/**
 * Values a field's path suggests ("sensors.macAddress"), so that an example gets past the
 * simplest checks: an address, a real time zone, the seeded device of Acme and its channel.
 */
const HINTS: [RegExp, unknown][] = [
  [/email\w*$/i, "someone@example.org"],
  [/password$/i, "a-long-password-1"],
  [/timezone$/i, "Europe/Paris"],
  [/^referrer$/, "ord-1"],
  [/^sensors\.macAddress$/, "W1A001"],
  [/macAddress$/, "00:1A:2B:3C:4D:01"],
  // update-sensor names a channel group (no channel type); channels name a channel.
  [/^channelKey$/, "00:1A:2B:3C:4D:01_W1A001_1200_0"],
  [/channelKey$/, "00:1A:2B:3C:4D:01_W1A001_1200_0_1"],
  // A card the sandbox declines: examples reach the gateway and change nothing.
  [/^cardNumber$/, "4000000000000002"],
  [/^cardExpirationMonth$/, "12"],
  [/^cardExpirationYear$/, "49"],
  [/^cardCvv$/, "123"],
  [/^idempotencyKey$/, "example-attempt-key-0001"],
  // A reading's time must be recent; left out, it is the time of the push.
  [/^readings\.time$/, OMIT],
];

/** Values for string fields only (an integer `id` elsewhere keeps its own example). */
const STRING_HINTS: [RegExp, string][] = [
  // The lookup's number and contact name of a seeded order, so the example finds it.
  [/^id$/, "ORD-5003"],
  [/^contact$/, "Dana Whitfield"],
];

/** A value that satisfies a (simple) JSON Schema: hints by path, first choices, minimum sizes. */
export function exampleOf(schema: JsonSchema, path = ""): unknown {
  const hint = HINTS.find(([pattern]) => pattern.test(path));
  if (hint && schema["type"] !== "object" && schema["type"] !== "array") return hint[1];
  const stringHint = STRING_HINTS.find(([pattern]) => pattern.test(path));
  if (stringHint && schema["type"] === "string") return stringHint[1];
  if ("const" in schema) return schema["const"];
  if (schema["default"] !== undefined) return schema["default"];
  if (Array.isArray(schema["enum"])) return schema["enum"][0];
  if (Array.isArray(schema["anyOf"])) return exampleOf(schema["anyOf"][0], path);
  const type = Array.isArray(schema["type"]) ? schema["type"][0] : schema["type"];
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries((schema["properties"] ?? {}) as JsonSchema)
          .map(([k, s]) => [k, exampleOf(s, path ? `${path}.${k}` : k)])
          .filter(([, v]) => v !== OMIT),
      );
    case "array":
      return Array.from({ length: Math.max(1, schema["minItems"] ?? 1) }, () =>
        exampleOf(schema["items"] ?? {}, path),
      );
    case "integer":
    case "number":
      return schema["minimum"] ?? (schema["exclusiveMinimum"] ?? 0) + 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "x".repeat(Math.max(1, schema["minLength"] ?? 1));
  }
}

/** Top-level fields of an object schema that hold a record id: integers named `id` or `…Id`. */
export function idFields(schema: JsonSchema | undefined): string[] {
  return Object.entries((schema?.["properties"] ?? {}) as JsonSchema)
    .filter(([name, s]) => /(^id|Id)$/.test(name) && s["type"] === "integer")
    .map(([name]) => name);
}

/** Path parameter names of a route ("/things/:id" → ["id"]). */
export const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/** The path with its parameters filled in (encoded): the values given, a seeded record's, or "1". */
export const fillPath = (path: string, values: Record<string, string>) => examplePath(path, values);

/** How a route takes its input: its contract's kind, else JSON for writes and nothing for reads. */
export function bodyKind(route: Pick<Route, "method" | "path">): Endpoint["body"] {
  return endpointOf(route)?.body ?? (route.method === "GET" ? "none" : "json");
}

/** A form or query string of flat fields (nested values as JSON, arrays as repeated keys). */
export function encodeFields(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    for (const item of Array.isArray(value) ? value : [value])
      params.append(key, typeof item === "string" ? item : JSON.stringify(item));
  return params.toString();
}

/** URL (path + query) and init of a request carrying `input` the way the route takes it. */
export function requestOf(
  route: Pick<Route, "method" | "path">,
  params: Record<string, string>,
  input: unknown,
): { url: string; init: RequestInit } {
  const path = fillPath(route.path, params);
  const kind = bodyKind(route);
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  if (kind === "query") return { url: `${path}?${encodeFields(fields)}`, init: { method: route.method } };
  if (kind === "none" && route.method === "GET") return { url: path, init: { method: route.method } };
  if (kind === "form")
    return {
      url: path,
      init: {
        method: route.method,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: encodeFields(fields),
      },
    };
  return {
    url: path,
    init: {
      method: route.method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    },
  };
}
