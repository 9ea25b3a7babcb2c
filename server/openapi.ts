import { toJSONSchema } from "zod";
import type * as z from "zod/mini";
import type { Endpoint } from "../src/api/endpoint.ts";
import { ErrorEnvelope } from "../src/api/errors.ts";
import type { ListedEndpoint } from "../src/api/index.ts";
import type { Access } from "./http/access.ts";

/** Where the document is served (an /api/ route, listed in the access table). */
export const OPENAPI_PATH = "/api/openapi.json";

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;
type Origins = Partial<Record<Endpoint["host"], string>>;

export interface OpenApiOptions {
  /** The session cookie's name (the `session` security scheme). */
  sessionCookie: string;
  /** Configured origins per host; an empty one means the origin serving the document. */
  origins?: Origins;
}

/** A contract schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), refinements left out. */
function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

/** "/auth/saml/login/:name" → "/auth/saml/login/{name}" and its path parameters. */
function pathParts(path: string) {
  const names = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const parameters = names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  return { path: path.replace(/:([A-Za-z]+)/g, "{$1}"), parameters };
}

/** Query fields as parameters: one per property of the request object. */
function queryParameters(endpoint: Endpoint): JsonSchema[] {
  if (!endpoint.request) return [];
  const schema = jsonSchema(endpoint.request, "input");
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}

const MEDIA_TYPE = { json: "application/json", form: "application/x-www-form-urlencoded" } as const;

/** The request body of a JSON or form endpoint; none for query and bodiless endpoints. */
function requestBody(endpoint: Endpoint): Operation | undefined {
  if ((endpoint.body !== "json" && endpoint.body !== "form") || !endpoint.request) return undefined;
  const schema = jsonSchema(endpoint.request, "input");
  return { required: true, content: { [MEDIA_TYPE[endpoint.body]]: { schema } } };
}

/** `{success: true, data}` around the endpoint's response, and the error envelope for failures. */
function responses(endpoint: Endpoint): Operation {
  const envelope = {
    type: "object",
    properties: { success: { const: true }, data: jsonSchema(endpoint.response, "output") },
    required: ["success", "data"],
  };
  return {
    "200": { description: "Success.", content: { "application/json": { schema: envelope } } },
    "4XX": { $ref: "#/components/responses/Error" },
    "5XX": { $ref: "#/components/responses/Error" },
  };
}

/** Security requirement and a sentence for the operation's access entry. */
function security(access: Access): Operation {
  switch (access.kind) {
    case "session": {
      const terms = access.beforeTerms ? "" : " Needs the Terms of Service accepted.";
      return {
        security: [{ session: [] }],
        description: `Signed in, with a role that may \`${access.action}\` in the active subscription.${terms}`,
      };
    }
    case "device":
      return { security: [{ Device: [] }], description: "A device, with `Authorization: Device {key}`." };
    case "token":
      return { security: [], description: "Anyone holding the emailed link's unguessable token." };
    case "ops":
      return {
        security: [{ Ops: [] }],
        description:
          "The back office, with `Authorization: Bearer ops_…`; writes need an `Idempotency-Key` header.",
      };
    case "demo":
      return { security: [], description: "Demo mode, from this computer only." };
    case "public":
      return { security: [], description: "Anyone." };
  }
}

/** The access table's entry for a route; a route without one is a bug (as in `guard`). */
function accessOf(table: Record<string, Access>, method: string, path: string): Access {
  const access = table[`${method.toUpperCase()} ${path}`];
  if (!access) throw new Error(`${method.toUpperCase()} ${path} is not in the access table`);
  return access;
}

/** One operation: where it lives, who may call it, what goes in and what comes back. */
function operation(listed: ListedEndpoint, table: Record<string, Access>, origins: Origins) {
  const { endpoint } = listed;
  const access = accessOf(table, endpoint.method, endpoint.path);
  const query = endpoint.body === "query" ? queryParameters(endpoint) : [];
  const parameters = [...pathParts(endpoint.path).parameters, ...query];
  const body = requestBody(endpoint);
  const origin = origins[endpoint.host];
  return {
    operationId: listed.name,
    tags: [listed.module],
    summary: endpoint.summary,
    ...security(access),
    "x-access": access,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    ...(origin ? { servers: [{ url: origin }] } : {}),
    responses: responses(endpoint),
  };
}

/** The document's own entry: plain JSON, no envelope. */
function selfOperation(table: Record<string, Access>) {
  return {
    operationId: "getOpenApiDocument",
    tags: ["openapi"],
    summary: "This OpenAPI document.",
    ...security(accessOf(table, "get", OPENAPI_PATH)),
    "x-access": accessOf(table, "get", OPENAPI_PATH),
    responses: {
      "200": { description: "OpenAPI 3.1.", content: { "application/json": { schema: { type: "object" } } } },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the API, built from the src/api contracts and the access table
 * (pure: same input, same document). Each contract module is a tag; requests are read as
 * the browser sends them (`io: "input"`), answers as the server returns them.
 */
export function openApiDocument(
  endpoints: readonly ListedEndpoint[],
  table: Record<string, Access>,
  options: OpenApiOptions,
) {
  const paths: Record<string, Record<string, unknown>> = { [OPENAPI_PATH]: { get: selfOperation(table) } };
  for (const listed of endpoints) {
    const { path } = pathParts(listed.endpoint.path);
    paths[path] = {
      ...paths[path],
      [listed.endpoint.method]: operation(listed, table, options.origins ?? {}),
    };
  }
  const modules = [...new Set(endpoints.map((e) => e.module)), "openapi"];
  return {
    openapi: "3.1.1",
    info: {
      title: "Device portal API",
      version: "1",
      description: "Answers are `{success: true, data}` or `{success: false, data: [{field, message}]}`.",
    },
    tags: modules.map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorEnvelope, "output") },
      responses: {
        Error: {
          description: "The request failed; `data` lists field errors (field null for the whole request).",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: options.sessionCookie },
        Ops: { type: "http", scheme: "bearer", description: "An ops token (`npm run ops -- token create`)." },
        Device: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Device {key}`: the device's own push key.",
        },
      },
    },
  };
}
