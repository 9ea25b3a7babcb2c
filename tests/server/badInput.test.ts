import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import { getSession } from "../../src/api/session.ts";
import { createOpsToken } from "../../server/data/opsTokens.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { bodyKind, endpointOf, exampleOf, mountedRoutes, requestSchema, type Route } from "./contracts.ts";
import { casesFor, describeCase, heavyCases, type Case, type Target } from "./fuzz.ts";
import { examplePath, prng } from "./fuzzValues.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";
import { rowIdsOf, subscriptionId, type Db } from "./ownership.ts";

/*
 * Fuzz: spoiled requests to every route the app mounts (and so every route of the access
 * table), generated from a seed: empty bodies, wrong types, oversized values, NUL, RTL,
 * emoji, combining marks and lone surrogates, negative and huge numbers, arrays for strings,
 * unknown fields, wrong content types, ids of another subscription, deep nesting. Nothing may
 * answer 5xx. The caller is signed in (Northwind's administrator, so Acme's ids are foreign)
 * and carries a device's push key. A failure prints the request; FUZZ_SEED=n replays a run.
 */

const SEED = Number(process.env["FUZZ_SEED"] ?? 20261122);
const MIN_REQUESTS = 2000;
const PER_ROUTE = 64;
/** Requests in flight at once (PGlite answers one query at a time; hashing runs beside it). */
const CONCURRENCY = 4;
const ORIGIN = "http://localhost";
const CALLER = "owner@northwind.example.com";
const MAC = "00:1A:2B:3C:4D:01";
const CHANNEL = `${MAC}_W1A001_1200_0_1`;
const INT4_MAX = 2_147_483_647;
const TOO_DEEP = "The request is nested too deeply.";
/** A device's own key (demo keys work only in demo mode), so pushes reach the readings. */
const DEVICE_KEY = randomBytes(32).toString("base64url");
const HOUR = 3_600_000;

/** Fields a route without a contract may read (account forms, ids, SAML). */
const USUAL_FIELDS = [
  "emailAddress",
  "password",
  "token",
  "otp",
  "remember",
  "referrer",
  "id",
  "subscriptionId",
  "messageId",
  "SAMLResponse",
  "RelayState",
  "ticket",
  "next",
];

/** Shapes that once answered 500 (kept as they were found), sent to every route with a body. */
const KNOWN_SHAPES: [string, unknown][] = [
  [
    "a push with one channel twice in one second",
    {
      macAddress: MAC,
      readings: [
        { channelKey: CHANNEL, value: 1 },
        { channelKey: CHANNEL, value: 2 },
      ],
    },
  ],
  [
    "a push with a reading time beyond int4",
    { macAddress: MAC, readings: [{ channelKey: CHANNEL, value: 1, time: INT4_MAX + 1 }] },
  ],
  [
    "a push with a sensor named twice",
    {
      macAddress: MAC,
      readings: [{ channelKey: CHANNEL, value: 1 }],
      sensors: [
        { macAddress: "W1A001", battery: 10 },
        { macAddress: "W1A001", battery: 20 },
      ],
    },
  ],
  ["ids beyond int4", { id: INT4_MAX + 1, subscriptionId: INT4_MAX + 1, messageId: INT4_MAX + 1 }],
];

const routes = mountedRoutes();

/** What the generator needs to know of a route. */
function targetOf(route: Route, foreignIds: number[]): Target {
  const schema = requestSchema(endpointOf(route));
  const example = schema ? (exampleOf(schema) as Record<string, unknown>) : {};
  const fields = schema?.["properties"] ? Object.keys(schema["properties"]) : USUAL_FIELDS;
  return { method: route.method, path: route.path, kind: bodyKind(route), example, fields, foreignIds };
}

/** The fixed shapes as cases for a route with a body. */
const knownCases = (route: Route): Case[] =>
  route.method === "GET"
    ? []
    : KNOWN_SHAPES.map(([label, body]) => ({
        label,
        url: examplePath(route.path),
        init: {
          method: route.method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        },
      }));

/** Runs `run` over the items with at most `limit` in flight. */
async function inPool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** A peer address per request (rate limits count per address), loopback now and then. */
const peer = (n: number) => ({
  incoming: {
    socket: {
      remoteAddress: n % 16 === 0 ? "127.0.0.1" : `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      remotePort: 40000,
      remoteFamily: "IPv4",
    },
  },
});

type App = ReturnType<typeof buildApp>;

describe("bad input on every route", () => {
  const ctx = useTestApp({ seeded: true });
  const giveDeviceKey = () =>
    ctx.database.db.execute(
      sql`update devices set ingest_key_hash = ${createHash("sha256").update(DEVICE_KEY).digest("hex")}
          where mac_address = ${MAC}`,
    );

  it("finds the app's routes", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map((r) => r.key)).toContain("POST /api/v1/device-data/push");
  });

  it(`never answers 5xx to ${MIN_REQUESTS}+ spoiled requests (FUZZ_SEED=${SEED})`, async () => {
    await giveDeviceKey();
    // The SAML routes log each refused (spoiled) assertion as a warning: expected here.
    const quiet = vi.spyOn(console, "warn").mockImplementation(() => {});
    const started = performance.now();
    const run = await fuzz(ctx.database.db).finally(() => quiet.mockRestore());
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const statuses = [...run.statuses].sort().map(([status, n]) => `${status}x${n}`);
    console.log(
      `Fuzz: ${run.sent} requests to ${routes.length} routes in ${seconds} s (FUZZ_SEED=${SEED}), ${run.failures.length} answered 5xx; ${statuses.join(" ")}`,
    );
    if (run.failures.length) console.log(run.failures.join("\n"));
    expect(run.sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(run.failures).toEqual([]);
  }, 180_000);

  it("carries a device key that works, so the push shapes reach the readings", async () => {
    await giveDeviceKey();
    const res = await ctx.app.request(`${ORIGIN}/api/v1/device-data/push`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", authorization: `Device ${DEVICE_KEY}` },
      body: JSON.stringify(KNOWN_SHAPES[0]![1]),
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ["/api/v1/session/active-subscription", "subscriptionId"],
    ["/api/v1/account-messages/dismiss-message", "messageId"],
  ])("refuses an id beyond int4 at %s beside the field", async (path, field) => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    for (const value of [INT4_MAX + 1, 1e20, -1, 0, "1"]) {
      const res = await admin.json(path, { [field]: value });
      expect(res.status).toBe(400);
      const errors: { field: string }[] = (await res.json()).data;
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.map((e) => e.field)).toEqual(errors.map(() => field));
    }
  });

  it.each([
    ["arrays", `${"[".repeat(5000)}${"]".repeat(5000)}`],
    ["objects", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
    ["arrays 33 deep", `${"[".repeat(33)}${"]".repeat(33)}`],
  ])("refuses JSON %s nested too deeply with a 400 that says so", async (_name, body) => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    const res = await ctx.app.request(`${ORIGIN}/api/v1/session/settings`, {
      method: "PATCH",
      headers: { origin: ORIGIN, "content-type": "application/json", cookie: cookieOf(admin) },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).data).toEqual([{ field: null, message: TOO_DEEP }]);
  });

  it("accepts JSON nested exactly to the limit", async () => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    const res = await admin.json(
      "/api/v1/session/settings",
      JSON.parse(`${"[".repeat(32)}${"]".repeat(32)}`),
      "PATCH",
    );
    expect(res.status).toBe(400);
    expect((await res.json()).data[0].message).not.toBe(TOO_DEEP);
  });
});

/**
 * Sends every route its spoiled requests, route after route, a few at a time, signed in as
 * the caller; the clock moves an hour per route so one route's rate limits do not spill into
 * the next. The dev mailbox lives in a demo-mode app on the same database.
 */
async function fuzz(db: Db) {
  let now = TEST_NOW.getTime();
  const deps = { db, now: () => new Date(now) };
  const app = buildApp({ ...deps, config: testConfig() });
  const demoApp = buildApp({ ...deps, config: testConfig({ DEMO: "1" }) });
  const appFor = (route: Route) =>
    app.routes.some((r) => `${r.method} ${r.path}` === route.key) ? app : demoApp;
  const caller = browser(app, ORIGIN);
  // Ops routes get a working ops token, so their bodies reach the checks past the token.
  const ops = (await createOpsToken(db, "fuzz", new Date(now))).token;
  const foreignIds = await rowIdsOf(db, await subscriptionId(db, "Acme"));
  const rng = prng(SEED);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  for (const route of routes) {
    await keepSignedIn(app, caller);
    const target = targetOf(route, foreignIds);
    const cases = [...casesFor(rng, target, PER_ROUTE), ...heavyCases(target), ...knownCases(route)];
    await inPool(cases, CONCURRENCY, async (c, i) => {
      const status = await sendCase(
        appFor(route),
        caller,
        c,
        sent + i,
        route.key.includes("/ops/") ? ops : null,
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500) failures.push(`${route.key} (${c.label}) -> ${status}\n    ${describeCase(c)}`);
    });
    sent += cases.length;
    now += HOUR;
  }
  return { sent, failures, statuses };
}

const cookieOf = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** Signs the caller in again when a spoiled request signed it out (logout, say). */
async function keepSignedIn(app: App, caller: Browser) {
  const res = await app.request(`${ORIGIN}${getSession.path}`, {
    headers: { origin: ORIGIN, cookie: cookieOf(caller) },
  });
  await res.arrayBuffer();
  if (res.status === 401) {
    caller.jar.clear();
    await signIn(caller, CALLER);
  }
}

/** Sends one case with the caller's cookie and the device key, or the ops token to an ops route (unless the case brings its own). */
async function sendCase(app: App, caller: Browser, c: Case, n: number, ops: string | null): Promise<number> {
  const headers = {
    origin: ORIGIN,
    cookie: cookieOf(caller),
    authorization: ops ? `Bearer ${ops}` : `Device ${DEVICE_KEY}`,
    // A new key per case: a repeated one would only replay the first answer.
    ...(ops ? { "idempotency-key": `fuzz-${n}` } : {}),
    ...(c.init.headers as Record<string, string> | undefined),
  };
  try {
    const res = await app.request(`${ORIGIN}${c.url}`, { ...c.init, headers }, peer(n));
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    // The app itself threw past its error handler: as bad as a 500.
    console.log(`threw: ${String(error)}`);
    return 599;
  }
}
