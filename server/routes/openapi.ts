import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { ACCESS, guard } from "../http/access.ts";
import { SESSION_COOKIE } from "../http/cookies.ts";
import { OPENAPI_PATH, openApiDocument } from "../openapi.ts";
import { ENDPOINTS } from "../../src/api/index.ts";

/**
 * GET /api/openapi.json: the API's OpenAPI 3.1 document, built once from the contracts and
 * the access table. (/api/* answers carry no-store like every API answer; it is small.)
 */
export function openApiRoutes(deps: Deps) {
  const document = openApiDocument(ENDPOINTS, ACCESS, {
    sessionCookie: SESSION_COOKIE,
    origins: deps.config.origins,
  });
  return new Hono().get(OPENAPI_PATH, guard({ method: "get", path: OPENAPI_PATH }, deps), (c) =>
    c.json(document),
  );
}
