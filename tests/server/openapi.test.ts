import * as z from "zod/mini";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS } from "../../server/http/access.ts";
import { openApiDocument } from "../../server/openapi.ts";
import { endpoint } from "../../src/api/endpoint.ts";
import { ENDPOINTS } from "../../src/api/index.ts";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"];
/** The parts of the app an integrator calls: the API and the account hosts' JSON calls. */
const DOCUMENTED = /^\/(api\/|gateway(\/|$)|user(\/|$))/;

/** Every operation of the document as [path, method, operation]. */
const operations = (doc: Json): [string, string, Json][] =>
  Object.entries(doc["paths"] as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, string, Json] => [path, method, op as Json]),
  );

/** Every `$ref` anywhere in a value. */
const refsIn = (value: unknown): string[] =>
  typeof value !== "object" || value === null
    ? []
    : Object.entries(value).flatMap(([k, v]) => (k === "$ref" && typeof v === "string" ? [v] : refsIn(v)));

/** The document as the app serves it. */
async function served(app: { request(url: string): Response | Promise<Response> }): Promise<Json> {
  const res = await app.request("http://localhost/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.json();
}

describe("the OpenAPI document", () => {
  const ctx = useTestApp();
  let doc: Json;
  beforeAll(async () => {
    doc = await served(ctx.app);
  });

  it("is served at /api/openapi.json as OpenAPI 3.1", () => {
    expect(doc["openapi"]).toMatch(/^3\.1\.\d+$/);
    expect(doc["info"]).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(operations(doc).length).toBeGreaterThan(20);
  });

  it("lists every mounted API, gateway and account route with its method", () => {
    const mounted = new Set(
      ctx.app.routes
        .filter((r) => r.method !== "ALL" && !r.path.includes("*") && DOCUMENTED.test(r.path))
        .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`),
    );
    const documented = new Set(operations(doc).map(([path, method]) => `${method.toUpperCase()} ${path}`));
    expect(mounted.size).toBeGreaterThan(20);
    expect([...mounted].filter((route) => !documented.has(route))).toEqual([]);
  });

  it("documents no route the app does not mount", () => {
    const mounted = new Set(
      ctx.app.routes.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`),
    );
    const documented = operations(doc).map(([path, method]) => `${method.toUpperCase()} ${path}`);
    expect(documented.filter((route) => !mounted.has(route))).toEqual([]);
  });

  it("declares each operation's access as the access table does", () => {
    for (const [path, method, op] of operations(doc)) {
      // The document writes {ref}; the access table, as Hono does, :ref.
      const key = `${method.toUpperCase()} ${path.replace(/\{([A-Za-z]+)\}/g, ":$1")}`;
      const access = (ACCESS as Record<string, { kind: string }>)[key];
      expect(op["x-access"], `${method} ${path}`).toEqual(access);
      const schemes = (op["security"] as Json[]).flatMap((s) => Object.keys(s));
      const expected =
        { session: ["session"], device: ["Device"], ops: ["Ops"] }[access!.kind as string] ?? [];
      expect(schemes, `${method} ${path}`).toEqual(expected);
    }
  });

  it("sends each contract's input the way its body kind says", () => {
    for (const { endpoint: e } of ENDPOINTS) {
      const op = doc["paths"][e.path.replace(/:([A-Za-z]+)/g, "{$1}")][e.method] as Json;
      const content = Object.keys(op["requestBody"]?.content ?? {});
      const query = ((op["parameters"] ?? []) as Json[]).filter((p) => p["in"] === "query");
      const hasInput = e.request !== undefined;
      expect(content, e.path).toEqual(
        hasInput && e.body === "json"
          ? ["application/json"]
          : hasInput && e.body === "form"
            ? ["application/x-www-form-urlencoded"]
            : [],
      );
      expect(query.length > 0, e.path).toBe(hasInput && e.body === "query");
    }
  });

  it("wraps answers in the success envelope and points failures at the error envelope", () => {
    const op = doc["paths"]["/gateway/check-email"].post as Json;
    const schema = op["responses"]["200"].content["application/json"].schema;
    expect(schema.properties.success).toEqual({ const: true });
    expect(schema.properties.data.properties).toHaveProperty("mfaRequired");
    expect(op["responses"]["4XX"]).toEqual({ $ref: "#/components/responses/Error" });
    expect(doc["components"].schemas.Error.properties.data.items.properties).toHaveProperty("message");
  });

  it("has a tag per contract module, unique operation ids and references that resolve", () => {
    const ops = operations(doc).map(([, , op]) => op);
    const ids = ops.map((op) => op["operationId"]);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((doc["tags"] as Json[]).map((t) => t["name"]));
    expect(tags).toEqual(new Set([...ENDPOINTS.map((e) => e.module), "openapi"]));
    for (const op of ops) expect(tags).toContain(op["tags"][0]);
    for (const ref of refsIn(doc)) {
      const target = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<any>((node, key) => node?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });
});

describe("the OpenAPI document and a signed-in browser", () => {
  const ctx = useTestApp({ seeded: true });

  it("names the cookie a sign-in sets as the session scheme", async () => {
    const person = browser(ctx.app);
    await signIn(person, "admin@example.com");
    const doc = await served(ctx.app);
    const scheme = doc["components"].securitySchemes.session;
    expect(scheme).toMatchObject({ type: "apiKey", in: "cookie" });
    expect([...person.jar.keys()]).toContain(scheme.name);
    expect(doc["components"].securitySchemes.Device).toMatchObject({ type: "apiKey", in: "header" });
  });
});

describe("openApiDocument", () => {
  const thing = endpoint({
    method: "patch",
    path: "/api/v1/things/:thingId/parts/:partId",
    host: "api",
    body: "json",
    request: z.object({ name: z.string() }),
    response: z.object({ id: z.number() }),
    summary: "Renames a part.",
  });
  const table = {
    "GET /api/openapi.json": { kind: "public" as const },
    "PATCH /api/v1/things/:thingId/parts/:partId": {
      kind: "session" as const,
      action: "device.edit" as const,
    },
  };

  it("turns :name segments into {name} path parameters", () => {
    const doc = openApiDocument([{ module: "things", name: "renamePart", endpoint: thing }], table, {
      sessionCookie: "sid",
    }) as Json;
    const op = doc["paths"]["/api/v1/things/{thingId}/parts/{partId}"].patch;
    expect(op.parameters.map((p: Json) => [p["name"], p["in"], p["required"]])).toEqual([
      ["thingId", "path", true],
      ["partId", "path", true],
    ]);
    expect(op.security).toEqual([{ session: [] }]);
  });

  it("refuses a contract that has no access entry", () => {
    const listed = [{ module: "things", name: "renamePart", endpoint: { ...thing, path: "/api/v1/other" } }];
    expect(() => openApiDocument(listed, table, { sessionCookie: "sid" })).toThrow(/not in the access table/);
  });

  it("sends an endpoint to its configured host", () => {
    const listed = [{ module: "things", name: "renamePart", endpoint: thing }];
    const doc = openApiDocument(listed, table, {
      sessionCookie: "sid",
      origins: { api: "https://api.example.com" },
    }) as Json;
    expect(doc["paths"]["/api/v1/things/{thingId}/parts/{partId}"].patch.servers).toEqual([
      { url: "https://api.example.com" },
    ]);
  });
});
