import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ACCESS, accessOf, type Access } from "../../server/http/access.ts";
import { roleMay } from "../../src/domain/permissions.ts";
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
import { useTestApp } from "./helpers.ts";

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
      const allowed = route.access.beforeTerms && roleMay(role, route.access.action);
      if (allowed ? status === 401 || status === 403 : status !== 403 || !text.includes(TERMS_REQUIRED))
        failures.push(`${route.key} -> ${status} ${text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers 403 to a role that lacks the route's action", async () => {
    const staff = await Promise.all(STAFF.map(async (email) => ({ email, b: await signedIn(email) })));
    const roles = await Promise.all(staff.map(async (s) => ({ ...s, role: await roleOf(s.b) })));
    const failures: string[] = [];
    const everyRoleMay: string[] = [];
    for (const route of sessionRoutes) {
      const lacking = roles.find((s) => !roleMay(s.role, route.access.action));
      if (!lacking) {
        everyRoleMay.push(route.key);
        continue;
      }
      const { status, text } = await send(ctx.app, lacking.b, route, {}, inputOf(route));
      if (status !== 403 || !text.includes(FORBIDDEN))
        failures.push(`${route.key} as ${lacking.email} -> ${status} ${text.slice(0, 120)}`);
    }
    console.log(
      `Role check: ${sessionRoutes.length - everyRoleMay.length} routes checked, ${everyRoleMay.length} that every role may call.`,
    );
    expect(failures).toEqual([]);
  });

  it("never shows one subscription's data to a person of another", async () => {
    const db = ctx.database.db;
    const acme = await subscriptionId(db, "Acme");
    const markers = await acmeOnlyStrings(db, acme);
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
      const missing = await send(
        ctx.app,
        other,
        route,
        fill(ids.params, NO_SUCH_ID),
        inputOf(route, fill(overrides, NO_SUCH_ID)),
      );
      if (theirs.status !== missing.status || theirs.text !== missing.text)
        leaks.push(
          `${route.key}: another subscription's id answers ${theirs.status} ${theirs.text.slice(0, 80)}, a missing one ${missing.status} ${missing.text.slice(0, 80)}`,
        );
      else if (mine.status < 300 && ![403, 404].includes(theirs.status))
        leaks.push(`${route.key}: another subscription's id answers ${theirs.status}`);
      else if (pathParams(route.path).length && mine.status < 300 && theirs.status !== 404)
        leaks.push(`${route.key}: another subscription's id in the path answers ${theirs.status}, not 404`);
    }
    expect(seenByAdmin, "Acme's own administrator sees Acme's data somewhere").toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});

type Db = ReturnType<typeof useTestApp>["database"]["db"];
const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The role of a signed-in person in their active subscription. */
async function roleOf(b: Browser) {
  const res = await b.get("/api/v1/session");
  const id: number = (await res.json()).data.sessionInformation.activeSubscription.role.id;
  if (!isRoleId(id)) throw new Error(`unknown role ${id}`);
  return id;
}

async function subscriptionId(db: Db, namePrefix: string) {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from subscriptions where name like ${`${namePrefix}%`}`,
  );
  return row!.id;
}

/** Tables whose rows belong to one subscription. */
const ownedTables = (db: Db) =>
  rowsOf<{ name: string }>(
    db,
    sql`select c.table_name as name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'subscription_id' and t.table_type = 'BASE TABLE'
        order by 1`,
  );

/**
 * Columns whose values are a shared vocabulary (statuses, kinds, carriers, catalogue models)
 * rather than a subscription's own words: another subscription may see the same ones.
 */
const SHARED_VOCABULARY =
  /(status|state|type|kind|method|carrier|carrier_name|service_name|service_code|units|color|firmware|url|code|family|model|product_number)$/;
const DATE_TIME = /^\d{4}-\d\d-\d\d/;

/** Text values of rows: each table's rows of the subscription, its own row, and its only-members. */
async function textsOf(db: Db, subscription: number, exceptIn: number | null) {
  const texts = new Set<string>();
  const add = (rows: Record<string, unknown>[]) => {
    for (const row of rows)
      for (const [column, v] of Object.entries(row))
        if (typeof v === "string" && !SHARED_VOCABULARY.test(column) && !DATE_TIME.test(v)) texts.add(v);
  };
  for (const { name } of await ownedTables(db))
    add(await rowsOf(db, sql`select * from ${sql.identifier(name)} where subscription_id = ${subscription}`));
  add(await rowsOf(db, sql`select name, tier_name from subscriptions where id = ${subscription}`));
  add(
    await rowsOf(
      db,
      sql`select email, first_name, last_name from users u
          where exists (select 1 from user_assignments a where a.user_id = u.id and a.subscription_id = ${subscription})
          and not exists (select 1 from user_assignments a where a.user_id = u.id and a.subscription_id = ${exceptIn ?? -1})`,
    ),
  );
  return texts;
}

/**
 * Strings only Acme's rows hold (names, titles, addresses of people only in Acme), long
 * enough not to be a common word: seeing one in another subscription's answer is a leak.
 */
async function acmeOnlyStrings(db: Db, acme: number): Promise<string[]> {
  const [other] = await rowsOf<{ id: number }>(
    db,
    sql`select id from subscriptions where id <> ${acme} order by id limit 1`,
  );
  const theirs = await textsOf(db, other!.id, null);
  const ours = await textsOf(db, acme, other!.id);
  return [...ours].filter((s) => s.length >= 6 && !theirs.has(s) && !/^[0-9a-f]{20,}$/i.test(s));
}

/** A `…subscriptionId` key holding the subscription's id anywhere in a JSON answer. */
const mentionsSubscription = (text: string, id: number) =>
  new RegExp(`"(?:\\w*[sS])ubscriptionId"\\s*:\\s*${id}\\b`).test(text);

/** The table a field or parameter names: `messageId` → account_messages, `orders/:id` → orders. */
async function tableFor(db: Db, name: string): Promise<string | undefined> {
  const stem = name.replace(/Id$/, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const plural = stem.endsWith("s") ? stem : `${stem}s`;
  const tables = (await ownedTables(db)).map((t) => t.name).concat("subscriptions");
  return tables.find((t) => t === plural) ?? tables.find((t) => t.endsWith(`_${plural}`));
}

/** An Acme row id for each id parameter and id field of the route. */
async function acmeIdsFor(db: Db, route: Route, acme: number) {
  const params: Record<string, string> = {};
  const overrides: Record<string, number> = {};
  const idOf = async (name: string) => {
    const table = await tableFor(db, name);
    if (!table) return undefined;
    const column = table === "subscriptions" ? sql`id` : sql`subscription_id`;
    const [row] = await rowsOf<{ id: number }>(
      db,
      sql`select id from ${sql.identifier(table)} where ${column} = ${acme} order by id limit 1`,
    );
    return row?.id;
  };
  const segments = route.path.split("/");
  for (const param of pathParams(route.path)) {
    const before = segments[segments.indexOf(`:${param}`) - 1] ?? "";
    const id = await idOf(param === "id" ? before : param);
    if (id !== undefined) params[param] = String(id);
  }
  for (const field of idFields(requestSchema(endpointOf(route)))) {
    const id = await idOf(field === "id" ? (segments.at(-1) ?? "") : field);
    if (id !== undefined) overrides[field] = id;
  }
  return { params, overrides, any: Object.keys(params).length + Object.keys(overrides).length > 0 };
}

/** The same keys, every value replaced. */
const fill = <T extends string | number>(values: Record<string, unknown>, value: T): Record<string, T> =>
  Object.fromEntries(Object.keys(values).map((k) => [k, value])) as Record<string, T>;
