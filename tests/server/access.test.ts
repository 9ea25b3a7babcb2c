import { describe, expect, it } from "vitest";
import { ACCESS, accessOf, type Access } from "../../server/http/access.ts";
import { isRoleId } from "../../src/domain/roles.ts";
import { browser, signIn, type Browser } from "./client.ts";
import {
  endpointOf,
  exampleOf,
  idFields,
  mountedRoutes,
  pathParams,
  requestOf,
  requestSchema,
  type Route,
} from "./contracts.ts";
import { expectedMay, ROUTE_ACTION } from "../support/expectedAccess.ts";
import { useTestApp } from "./helpers.ts";
import { onlyStrings, rowIdFor, subscriptionId, type Db } from "./ownership.ts";

/*
 * The access table (server/http/access.ts) against the routes the app really mounts, and what
 * every signed-in route does for the wrong caller. Everything is read from the app and the
 * table, so a route added to both is covered here with no new test code.
 */

const ORIGIN = "http://localhost";
const ACME_ADMIN = "admin@example.com";
/** The administrator of the other subscription, Northwind (Acme's administrator is also in it). */
const OTHER_OWNER = "owner@northwind.example.com";
const NEW_HIRE = "newhire@example.com";
const STAFF = ["admin", "manager", "viewer", "provisioner", "billing"].map((r) => `${r}@example.com`);
const FORBIDDEN = "You do not have permission to do that.";
const TERMS_REQUIRED = "Accept the Terms of Service to continue.";
/** An id no row has. */
const NO_SUCH_ID = 2_147_483_647;

const routes = mountedRoutes();
type SessionRoute = Route & { access: Extract<Access, { kind: "session" }> };
const sessionRoutes: SessionRoute[] = routes.flatMap((r) => {
  const access = accessOf(r.method, r.path);
  return access?.kind === "session" ? [{ ...r, access }] : [];
});

describe("the access table", () => {
  it("has an entry for every route the app mounts", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !accessOf(r.method, r.path)).map((r) => r.key)).toEqual([]);
  });

  it("requires of every signed-in route the action this test expects (tests/support/expectedAccess.ts)", () => {
    const actual = Object.fromEntries(sessionRoutes.map((r) => [r.key, r.access.action]));
    expect(actual).toEqual(ROUTE_ACTION);
  });

  it("has no entry that no route uses", () => {
    const mounted = new Set(routes.map((r) => r.key));
    expect(Object.keys(ACCESS).filter((key) => !mounted.has(key))).toEqual([]);
  });
});

type App = ReturnType<typeof useTestApp>["app"];

/** Sends one route's request with a browser's cookies; the status and the answer's text. */
async function send(
  app: App,
  b: Browser | null,
  route: Route,
  params: Record<string, string | number>,
  input: unknown,
) {
  const { url, init } = requestOf(
    route,
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    input,
  );
  const cookie = b ? [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ") : "";
  const headers = { origin: ORIGIN, cookie, ...(init.headers as Record<string, string>) };
  const res = await app.request(`${ORIGIN}${url}`, { ...init, headers });
  return { status: res.status, text: await res.text() };
}

/** The route's example input (from its contract), with `overrides` for its id fields. */
const inputOf = (route: Route, overrides: Record<string, number> = {}) => {
  const schema = requestSchema(endpointOf(route));
  return schema ? { ...(exampleOf(schema) as object), ...overrides } : undefined;
};

describe("every signed-in route", () => {
  const ctx = useTestApp({ seeded: true });
  const signedIn = async (email: string) => {
    const b = browser(ctx.app, ORIGIN);
    await signIn(b, email);
    return b;
  };

  it("is in the table (there are signed-in routes to check)", () => {
    expect(sessionRoutes.length).toBeGreaterThan(10);
  });

  it("answers 401 without a session", async () => {
    const failures: string[] = [];
    for (const route of sessionRoutes) {
      const { status } = await send(ctx.app, null, route, {}, inputOf(route));
      if (status !== 401) failures.push(`${route.key} -> ${status}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers 403 until the terms are accepted, except the routes that lead to them", async () => {
    const person = await signedIn(NEW_HIRE);
    const role = await roleOf(person);
    const failures: string[] = [];
    // The routes that may accept the terms go last, so the others still meet a newcomer.
    const ordered = [...sessionRoutes].sort(
      (a, b) => Number(!!a.access.beforeTerms) - Number(!!b.access.beforeTerms),
    );
    for (const route of ordered) {
      const { status, text } = await send(ctx.app, person, route, {}, inputOf(route));
      const allowed = route.access.beforeTerms && expectedMay(role, route.key);
      if (allowed ? status === 401 || status === 403 : status !== 403 || !text.includes(TERMS_REQUIRED))
        failures.push(`${route.key} -> ${status} ${text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers 403 to every role that lacks the route's action, and never to a role that has it", async () => {
    const staff = await Promise.all(STAFF.map(async (email) => ({ email, b: await signedIn(email) })));
    const roles = await Promise.all(staff.map(async (s) => ({ ...s, role: await roleOf(s.b) })));
    const failures: string[] = [];
    let refusals = 0;
    for (const route of sessionRoutes)
      for (const s of roles) {
        const may = expectedMay(s.role, route.key);
        const { status, text } = await send(ctx.app, s.b, route, {}, inputOf(route));
        const refused = status === 403 && text.includes(FORBIDDEN);
        if (refused === may) failures.push(`${route.key} as ${s.email} -> ${status} ${text.slice(0, 120)}`);
        if (refused) refusals++;
      }
    console.log(`Role check: ${sessionRoutes.length} routes × ${roles.length} roles, ${refusals} refused.`);
    expect(failures).toEqual([]);
  });

  it("never shows one subscription's data to a person of another", async () => {
    const db = ctx.database.db;
    const acme = await subscriptionId(db, "Acme");
    const markers = await onlyStrings(db, acme, await subscriptionId(db, "Northwind"));
    expect(markers).toContain("Acme Labs");
    const admin = await signedIn(ACME_ADMIN);
    const other = await signedIn(OTHER_OWNER);
    const leaks: string[] = [];
    let seenByAdmin = 0;
    // Reads first, so the writes (dismissing a message, say) do not change what they show.
    const ordered = [...sessionRoutes].sort(
      (a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"),
    );
    for (const route of ordered) {
      const ids = await acmeIdsFor(db, route, acme);
      const { params, overrides } = ids;
      const input = inputOf(route, overrides);
      const mine = await send(ctx.app, admin, route, params, input);
      const theirs = await send(ctx.app, other, route, params, input);
      if (markers.some((m) => mine.text.includes(m))) seenByAdmin++;
      const found = markers.filter((m) => theirs.text.includes(m));
      if (found.length || mentionsSubscription(theirs.text, acme))
        leaks.push(`${route.key}: shows ${found.join(", ") || `subscription ${acme}`}`);
      if (!ids.any) continue;
      // Another subscription's id must look exactly like an id that does not exist.
      const missingIds = {
        params: fill(params, NO_SUCH_ID),
        input: inputOf(route, fill(overrides, NO_SUCH_ID)),
      };
      const missing = await send(ctx.app, other, route, missingIds.params, missingIds.input);
      const asked = [...Object.values(params), ...Object.values(overrides), NO_SUCH_ID];
      const leak = idLeak(route, mine, withoutIds(theirs, asked), withoutIds(missing, asked));
      if (leak) leaks.push(`${route.key}: ${leak}`);
    }
    expect(seenByAdmin, "Acme's own administrator sees Acme's data somewhere").toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});

type Answer = { status: number; text: string };

/** The answer with the ids it was asked about written as `{id}` (an echoed id gives nothing away). */
const withoutIds = (answer: Answer, ids: (string | number)[]): Answer => ({
  status: answer.status,
  text: ids.reduce<string>((text, id) => text.replace(new RegExp(`\\b${id}\\b`, "g"), "{id}"), answer.text),
});

/**
 * What gives another subscription's row away: an answer unlike the one for a missing id, a
 * found row's request that is not refused (403/404), or, for an id in the path, not a 404.
 */
function idLeak(route: Route, mine: Answer, theirs: Answer, missing: Answer): string | null {
  if (theirs.status !== missing.status || theirs.text !== missing.text)
    return `another subscription's id answers ${theirs.status} ${theirs.text.slice(0, 80)}, a missing one ${missing.status} ${missing.text.slice(0, 80)}`;
  if (mine.status >= 300) return null;
  if (![403, 404].includes(theirs.status)) return `another subscription's id answers ${theirs.status}`;
  if (pathParams(route.path).length && theirs.status !== 404)
    return `another subscription's id in the path answers ${theirs.status}, not 404`;
  return null;
}

/** The role of a signed-in person in their active subscription. */
async function roleOf(b: Browser) {
  const res = await b.get("/api/v1/session");
  const id: number = (await res.json()).data.sessionInformation.activeSubscription.role.id;
  if (!isRoleId(id)) throw new Error(`unknown role ${id}`);
  return id;
}

/** A `…subscriptionId` key holding the subscription's id anywhere in a JSON answer. */
const mentionsSubscription = (text: string, id: number) =>
  new RegExp(`"(?:\\w*[sS])ubscriptionId"\\s*:\\s*${id}\\b`).test(text);

/** An Acme row id for each id parameter and id field of the route. */
async function acmeIdsFor(db: Db, route: Route, acme: number) {
  const params: Record<string, string> = {};
  const overrides: Record<string, number> = {};
  const segments = route.path.split("/");
  for (const param of pathParams(route.path)) {
    const before = segments[segments.indexOf(`:${param}`) - 1] ?? "";
    const id = await rowIdFor(db, param === "id" ? before : param, acme);
    if (id !== undefined) params[param] = String(id);
  }
  for (const field of idFields(requestSchema(endpointOf(route)))) {
    const id = await rowIdFor(db, field === "id" ? (segments.at(-1) ?? "") : field, acme);
    if (id !== undefined) overrides[field] = id;
  }
  return { params, overrides, any: Object.keys(params).length + Object.keys(overrides).length > 0 };
}

/** The same keys, every value replaced. */
const fill = <T extends string | number>(values: Record<string, unknown>, value: T): Record<string, T> =>
  Object.fromEntries(Object.keys(values).map((k) => [k, value])) as Record<string, T>;
