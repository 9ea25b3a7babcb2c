import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import type { Db } from "../../server/db/client.ts";
import { devices } from "../../server/db/schema/index.ts";
import { newDeviceKey, sha256 } from "../../server/services/deviceKeys.ts";
import { browser, signIn } from "./client.ts";
import { testConfig, useTestApp } from "./helpers.ts";

/*
 * Bad input on every route. The routes come from the app itself (Hono's `app.routes`), so a
 * new route is covered without editing this file; every shape below goes to every route,
 * signed in as an administrator and carrying a device's push key, and nothing may answer 5xx.
 * The tables are the seed of a larger fuzz test: add a row, not a loop.
 */

const ORIGIN = "http://localhost";
const MAC = "00:1A:2B:3C:4D:01";
const CHANNEL = `${MAC}_W1A001_1200_0_1`;
/** The device's own key (demo keys work only in demo mode), so pushes reach the readings. */
const DEVICE_KEY = newDeviceKey();
const INT4_MAX = 2_147_483_647;
const TOO_DEEP = "The request is nested too deeply.";

/** Values for `:param` segments: plain, beyond int4, negative, long, encoded slash. */
const PARAM_VALUES = ["1", String(INT4_MAX + 1), "-1", "x".repeat(2000), "a%2Fb"];

/** Fields that carry an id or a number somewhere in the API (and likely future ones). */
const NUMBER_FIELDS = [
  "id",
  "subscriptionId",
  "messageId",
  "userId",
  "deviceId",
  "channelId",
  "tagId",
  "quoteId",
  "orderId",
  "time",
  "uptime",
];
/** Form fields of the account forms, to fill with awkward values. */
const FORM_FIELDS = [
  "emailAddress",
  "password",
  "token",
  "otp",
  "remember",
  "referrer",
  "firstName",
  "lastName",
];

interface Shape {
  name: string;
  /** Content-Type; none for FormData (the boundary is set by the request). */
  type?: string;
  body: string | FormData;
}

const deepArrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
/** A JSON shape: a string is sent as raw text, anything else is serialised. */
const json = (name: string, value: unknown): Shape => ({
  name: `JSON ${name}`,
  type: "application/json",
  body: typeof value === "string" ? value : JSON.stringify(value),
});
const form = (name: string, body: string): Shape => ({
  name: `form ${name}`,
  type: "application/x-www-form-urlencoded",
  body,
});
const everyField = <T>(fields: string[], value: T): Record<string, T> =>
  Object.fromEntries(fields.map((f) => [f, value]));
const multipart = (entries: [string, string | Blob][]) => {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
};

const NUMBER_VALUES: [string, unknown][] = [
  ["beyond int4", INT4_MAX + 1],
  ["far beyond int4", 1e20],
  ["negative", -1],
  ["zero", 0],
  ["fractional", 1.5],
  ["a string", "1"],
  ["null", null],
  ["an object", { id: 1 }],
];

const JSON_SHAPES: Shape[] = [
  json("arrays nested 5,000 deep", deepArrays(5000)),
  json("arrays nested 100,000 deep", deepArrays(100_000)),
  json("objects nested 5,000 deep", deepObjects(5000)),
  json("objects nested 100,000 deep", deepObjects(100_000)),
  json(
    "nesting 5,000 deep under every number field",
    `{${NUMBER_FIELDS.map((f) => `"${f}":${deepArrays(5000)}`).join(",")}}`,
  ),
  json("an empty body", ""),
  json("an empty object", {}),
  json("null", "null"),
  json("a string", '"x"'),
  json("an empty array", []),
  json("a number beyond doubles", "1e400"),
  json("not JSON", "{oops"),
  json("U+0000 in a key and a value", { "a\u0000": "b\u0000" }),
  json("U+0000 in every form field", everyField(FORM_FIELDS, "a\u0000")),
  json("numbers in every form field", everyField(FORM_FIELDS, 2147483648)),
  ...NUMBER_VALUES.flatMap(([label, value]) =>
    NUMBER_FIELDS.map((f) => json(`${f} ${label}`, { [f]: value })),
  ),
  json("a push with one channel twice at the same time", {
    macAddress: MAC,
    readings: [
      { channelKey: CHANNEL, value: 1 },
      { channelKey: CHANNEL, value: 2 },
    ],
  }),
  json("a push with a reading time beyond int4", {
    macAddress: MAC,
    readings: [{ channelKey: CHANNEL, value: 1, time: INT4_MAX + 1 }],
  }),
  json("a push with a sensor named twice", {
    macAddress: MAC,
    readings: [{ channelKey: CHANNEL, value: 1 }],
    sensors: [
      { macAddress: "W1A001", battery: 10 },
      { macAddress: "W1A001", battery: 20 },
    ],
  }),
  { name: "JSON sent as text/plain", type: "text/plain", body: "{}" },
];

const FORM_SHAPES: Shape[] = [
  form("empty", ""),
  form("a key nested 5,000 deep", `a${"[a]".repeat(5000)}=1`),
  form("a value of JSON nested 5,000 deep", `token=${encodeURIComponent(deepArrays(5000))}`),
  form("of 100,000 fields", Array.from({ length: 100_000 }, (_, i) => `f${i}=1`).join("&")),
  form("of 2 MB", `token=${"x".repeat(2 * 1024 * 1024)}`),
  form("with U+0000 in a key", `${encodeURIComponent("a\u0000")}=1`),
  form("with U+0000 in every field", new URLSearchParams(everyField(FORM_FIELDS, "a\u0000")).toString()),
  form("with every field repeated", FORM_FIELDS.map((f) => `${f}=a&${f}=b&${f}[]=c`).join("&")),
  form(
    "with ids beyond int4",
    new URLSearchParams(everyField(NUMBER_FIELDS, String(INT4_MAX + 1))).toString(),
  ),
  form("with a referrer beyond int4", `emailAddress=a%40example.com&referrer=ord-${INT4_MAX + 1}`),
  {
    name: "multipart with a file in every field",
    body: multipart(FORM_FIELDS.map((f) => [f, new Blob(["x"])])),
  },
  { name: "multipart with a deep key", body: multipart([[`a${"[a]".repeat(5000)}`, "1"]]) },
];

const QUERY_SHAPES = [
  "",
  `?token=${encodeURIComponent(deepArrays(5000))}`,
  `?id=${INT4_MAX + 1}&ticket=${INT4_MAX + 1}&token=-1`,
  "?token=a&token=b&ticket[]=1&next[]=/x",
  `?token=${"x".repeat(100_000)}`,
  "?next=//evil.example&next=%0d%0a",
];

/** Method and path of every route the app lists, middleware left out. */
function appRoutes(): [string, string][] {
  const app = buildApp({ db: {} as Db, config: testConfig() });
  const seen = new Set<string>();
  for (const { method, path } of app.routes)
    if (method !== "ALL" && !path.includes("*")) seen.add(`${method} ${path}`);
  return [...seen].map((r) => r.split(" ") as [string, string]);
}

/** The path with each `:param` replaced by every sample value. */
const concretePaths = (path: string) =>
  path.includes(":") ? PARAM_VALUES.map((v) => path.replace(/:[^/]+/g, v)) : [path];

describe("bad input on every route", () => {
  const ctx = useTestApp({ seeded: true });
  const routes = appRoutes();
  beforeEach(async () => {
    await ctx.database.db
      .update(devices)
      .set({ ingestKeyHash: sha256(DEVICE_KEY) })
      .where(eq(devices.macAddress, MAC));
  });

  it("finds the app's routes", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContainEqual(["POST", "/api/v1/device-data/push"]);
  });

  it.each(routes)("never answers %s %s with a 5xx", async (method, path) => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    const send = async (url: string, init: RequestInit) => {
      const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const headers = { origin: ORIGIN, cookie, authorization: `Device ${DEVICE_KEY}` };
      const res = await ctx.app.request(`${ORIGIN}${url}`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string>) },
      });
      await res.arrayBuffer();
      return res.status;
    };
    const failures: string[] = [];
    for (const url of concretePaths(path)) {
      if (method === "GET") {
        for (const query of QUERY_SHAPES) {
          const status = await send(`${url}${query}`, {});
          if (status >= 500) failures.push(`${url} query ${query.slice(0, 60)} -> ${status}`);
        }
        continue;
      }
      for (const shape of [...JSON_SHAPES, ...FORM_SHAPES]) {
        const headers: Record<string, string> = shape.type ? { "content-type": shape.type } : {};
        const status = await send(url, { method, headers, body: shape.body });
        if (status >= 500) failures.push(`${url.slice(0, 60)} ${shape.name} -> ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("carries a device key that works, so the push shapes reach the readings", async () => {
    const duplicate = JSON_SHAPES.find((s) => s.name.includes("one channel twice"))!;
    const res = await ctx.app.request(`${ORIGIN}/api/v1/device-data/push`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", authorization: `Device ${DEVICE_KEY}` },
      body: duplicate.body,
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
    ["arrays", deepArrays(5000)],
    ["objects", deepObjects(5000)],
    ["arrays 33 deep", deepArrays(33)],
  ])("refuses JSON %s nested too deeply with a 400 that says so", async (_name, body) => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    const res = await ctx.app.request(`${ORIGIN}/api/v1/session/settings`, {
      method: "PATCH",
      headers: {
        origin: ORIGIN,
        "content-type": "application/json",
        cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).data).toEqual([{ field: null, message: TOO_DEEP }]);
  });

  it("accepts JSON nested exactly to the limit", async () => {
    const admin = browser(ctx.app, ORIGIN);
    await signIn(admin, "admin@example.com");
    const res = await admin.json("/api/v1/session/settings", JSON.parse(deepArrays(32)), "PATCH");
    expect(res.status).toBe(400);
    expect((await res.json()).data[0].message).not.toBe(TOO_DEEP);
  });
});
