import { gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { rateLimits, userAssignments, users } from "../../server/db/schema/index.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { hashQueueFull, withHashSlot } from "../../server/services/hashQueue.ts";
import { GZIP_FROM_BYTES } from "../../server/http/reply.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { orderRef } from "./guestPayKit.ts";
import { cachingApp, TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Attacks on the speed changes (helper A12): the session check reused per session, the
 * public answers cached as JSON and gzip, the hash queue's early refusal, the prepared
 * session lookup. Every test here is an attack the portal held.
 */

const ORDER_PATH = `/api/v1/orders/public/${orderRef(DEMO.orderId)}`;
const REPORT_PATH = `/api/v1/device-data/public/report/${DEMO.fixedReportHash}`;
const REPORT_DATA_PATH = `/api/v1/device-data/public/report/data/${DEMO.fixedReportHash}`;

describe("attacks on the reused session check", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  // A long time, so only a write on this instance can end a reused answer.
  beforeAll(() => {
    app = cachingApp(ctx.database.db);
  });
  const cookieOf = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const check = async (cookie: string) => {
    const res = await app.request("http://localhost/api/v1/session", { headers: { cookie } });
    return res.status === 200 ? (await res.json()).data : res.status;
  };
  const signedIn = async (email: string) => {
    const b = browser(app);
    await signIn(b, email);
    return b;
  };

  it("refuses the other sessions at once after sign out everywhere else, though their check was reused", async () => {
    const here = await signedIn("viewer@example.com");
    const there = await signedIn("viewer@example.com");
    expect((await check(cookieOf(there))).sessionInformation.email).toBe("viewer@example.com");
    const res = await here.delete("/api/v1/account/sessions/others");
    expect(res.status).toBe(200);
    expect(await check(cookieOf(there))).toBe(401);
    expect((await check(cookieOf(here))).sessionInformation.email).toBe("viewer@example.com");
  });

  it("shows a subscription switch, a settings save and accepted terms in the very next check", async () => {
    const admin = await signedIn("admin@example.com");
    const before = await check(cookieOf(admin));
    expect(before.sessionInformation.activeSubscription.role.name).toBe("ADMIN");
    const other = before.sessionInformation.userAssignmentList.find(
      (a: { subscriptionId: number }) => a.subscriptionId !== before.sessionInformation.activeSubscriptionId,
    );
    expect(
      (await admin.json("/api/v1/session/active-subscription", { subscriptionId: other.subscriptionId }))
        .status,
    ).toBe(200);
    const switched = (await check(cookieOf(admin))).sessionInformation;
    expect(switched.activeSubscriptionId).toBe(other.subscriptionId);
    expect(switched.activeSubscription.role.name).toBe(other.role.name);
    const saved = await admin.json(
      "/api/v1/session/settings",
      { temperatureScale: "F", timezone: "Europe/Paris" },
      "PATCH",
    );
    expect(saved.status).toBe(200);
    expect((await check(cookieOf(admin))).sessionInformation).toMatchObject({
      temperatureScale: "F",
      timezone: "Europe/Paris",
    });
    const newhire = await signedIn("newhire@example.com");
    expect((await check(cookieOf(newhire))).termsAccepted).toBe(false);
    expect((await newhire.json("/api/v1/session/terms-accepted", {})).status).toBe(200);
    expect((await check(cookieOf(newhire))).termsAccepted).toBe(true);
  });

  it("keys the reused check on the token the access check reads, whatever else the cookie header holds", async () => {
    const admin = await signedIn("admin@example.com");
    const viewer = await signedIn("viewer@example.com");
    const adminSid = admin.jar.get("portal_sid")!;
    const viewerSid = viewer.jar.get("portal_sid")!;
    expect((await check(`portal_sid=${adminSid}`)).sessionInformation.email).toBe("admin@example.com");
    // The first of two cookies of one name is the session, for the access check and the reuse alike.
    expect((await check(`portal_sid=${viewerSid}; portal_sid=${adminSid}`)).sessionInformation.email).toBe(
      "viewer@example.com",
    );
    for (const cookie of [
      `portal_sid=nobody; portal_sid=${adminSid}`,
      `PORTAL_SID=${adminSid}`,
      `portal_sid=${adminSid.toUpperCase()}`,
      `portal_sid=${adminSid}x`,
      `portal_sid=${adminSid.slice(0, -1)}`,
      `portal_sid= `,
      `xportal_sid=${adminSid}`,
    ])
      expect(await check(cookie), cookie).toBe(401);
  });

  it("answers 401, never a 500 or another person, for malformed, very long and non-ASCII tokens", async () => {
    const admin = await signedIn("admin@example.com");
    expect((await check(cookieOf(admin))).sessionInformation.email).toBe("admin@example.com");
    for (const token of [
      "x",
      "a".repeat(8000),
      "%C3%A9t%C3%A9",
      "%00",
      "%ZZ",
      '""',
      "null",
      "a%20b",
      "\u00e9\u00ff".repeat(50),
    ])
      expect(await check(`portal_sid=${token}`), token.slice(0, 20)).toBe(401);
  });
});

describe("attacks on the session lookup", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("signs no one in whose membership of the active subscription was removed", async () => {
    const viewer = browser(ctx.app);
    await signIn(viewer, "viewer@example.com");
    expect((await viewer.get("/api/v1/session")).status).toBe(200);
    const [person] = await db().select().from(users).where(eq(users.email, "viewer@example.com"));
    await db().delete(userAssignments).where(eq(userAssignments.userId, person!.id));
    expect((await viewer.get("/api/v1/session")).status).toBe(401);
    expect((await viewer.get("/api/v1/devices")).status).toBe(401);
  });

  it("signs no one in with an expired session", async () => {
    const viewer = browser(ctx.app);
    await signIn(viewer, "viewer@example.com");
    await ctx.database.db.execute(
      sql`update sessions set expires_at = ${TEST_NOW.toISOString()}::timestamptz`,
    );
    expect((await viewer.get("/api/v1/session")).status).toBe(401);
  });
});

describe("attacks on the cached public answers", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  beforeAll(() => {
    app = cachingApp(ctx.database.db);
  });
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    app.request(`http://localhost${path}`, { method, headers });
  /** The answer's JSON text, unzipped when it says it is gzipped. */
  const textOf = async (res: Response) => {
    const body = Buffer.from(await res.arrayBuffer());
    return res.headers.get("content-encoding") === "gzip" ? gunzipSync(body).toString() : body.toString();
  };

  it.each([
    ["gzip;q=0", false],
    ["gzip; q=0.0", false],
    ["GZIP;Q=0", false],
    ["identity", false],
    ["x-gzip", true],
    ["gzipfoo", false],
    ["br", false],
    ["gzip;q=0, br", false],
    ["GZIP", true],
    ["br;q=1, gzip;q=0.1", true],
    ["identity;q=0, gzip", true],
    ["*", true],
    ["*;q=0", false],
    ["gzip;q=0, *", false],
  ])(
    "sends the order plain or gzipped as %j allows (gzip: %s), the same text either way",
    async (accept, zipped) => {
      const plain = await textOf(await get(ORDER_PATH));
      const res = await get(ORDER_PATH, { "accept-encoding": accept });
      expect(res.status).toBe(200);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("content-encoding")).toBe(zipped ? "gzip" : null);
      expect(await textOf(res)).toBe(plain);
    },
  );

  it("never sends a zipped chart or report answer to a visitor who refuses gzip, and zips only one worth it", async () => {
    for (const path of [REPORT_PATH, REPORT_DATA_PATH]) {
      const refused = await get(path, { "accept-encoding": "gzip;q=0, identity" });
      expect(refused.status).toBe(200);
      expect(refused.headers.get("content-encoding")).toBeNull();
      expect(refused.headers.get("vary")).toMatch(/accept-encoding/i);
      const plain = await textOf(refused);
      const zipped = await get(path, { "accept-encoding": "gzip" });
      const worth = plain.length >= GZIP_FROM_BYTES;
      expect(zipped.headers.get("content-encoding"), path).toBe(worth ? "gzip" : null);
      expect(JSON.parse(await textOf(zipped))).toEqual(JSON.parse(plain));
    }
    // Both kinds are covered: the fixed report's metadata goes zipped, its short chart data plain.
    expect((await textOf(await get(REPORT_PATH))).length).toBeGreaterThanOrEqual(GZIP_FROM_BYTES);
    expect((await textOf(await get(REPORT_DATA_PATH))).length).toBeLessThan(GZIP_FROM_BYTES);
  });

  it("answers a HEAD of a cached answer without a body", async () => {
    await get(ORDER_PATH, { "accept-encoding": "gzip" });
    const head = await get(ORDER_PATH, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("gives the anonymous answer no member path after a member's visit, and the member theirs after it", async () => {
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const owner = browser(app);
    await signIn(owner, "owner@northwind.example.com");
    const memberPath = async (res: Response) =>
      (JSON.parse(await textOf(res)) as { data: { orderDetails: { memberPath: string | null } } }).data
        .orderDetails.memberPath;
    expect(await memberPath(await admin.get(ORDER_PATH))).toBe(`/s/order/details/${DEMO.orderId}`);
    expect(await memberPath(await get(ORDER_PATH))).toBeNull();
    expect(await memberPath(await get(ORDER_PATH, { "accept-encoding": "gzip" }))).toBeNull();
    expect(await memberPath(await admin.get(ORDER_PATH))).toBe(`/s/order/details/${DEMO.orderId}`);
    expect(await memberPath(await owner.get(ORDER_PATH))).toBeNull();
  });

  it("fails a deleted report's link at once, its cached metadata and chart data alike", async () => {
    expect((await get(REPORT_PATH)).status).toBe(200);
    expect((await get(REPORT_DATA_PATH, { "accept-encoding": "gzip" })).status).toBe(200);
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const [report] = await rows<{ id: number }>(
      ctx.database.db,
      sql`select id from reports where public_hash = ${DEMO.fixedReportHash}`,
    );
    expect((await admin.delete(`/api/v1/reports/${report!.id}`)).status).toBe(200);
    expect((await get(REPORT_PATH)).status).toBe(404);
    expect((await get(REPORT_DATA_PATH, { "accept-encoding": "gzip" })).status).toBe(404);
  });

  it("fails a link whose sharing stopped at once", async () => {
    expect((await get(REPORT_DATA_PATH)).status).toBe(200);
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const [report] = await rows<{ id: number }>(
      ctx.database.db,
      sql`select id from reports where public_hash = ${DEMO.fixedReportHash}`,
    );
    expect((await admin.delete(`/api/v1/reports/${report!.id}/public-link`)).status).toBe(200);
    expect((await get(REPORT_DATA_PATH)).status).toBe(404);
    expect((await get(REPORT_PATH)).status).toBe(404);
  });
});

describe("attacks on the hash queue", () => {
  const ctx = useTestApp({ seeded: true });
  let releaseAll: () => void = () => {};
  afterEach(async () => {
    releaseAll();
    // Let the held places go back before the next test signs in.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
  /** Takes every place of the hash queue with hashes that wait for releaseAll(). */
  const fillQueue = () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held: Promise<unknown>[] = [];
    while (!hashQueueFull()) held.push(withHashSlot(null, () => gate));
    releaseAll = open;
    return held;
  };

  it("refuses a known and an unknown address alike while full, and counts neither attempt", async () => {
    const held = fillQueue();
    const answers = [];
    for (const emailAddress of ["viewer@example.com", "nobody@example.com"]) {
      const res = await browser(ctx.app).form("/gateway/submit", {
        emailAddress,
        password: "demo-password-1",
      });
      answers.push([res.status, await res.text()]);
    }
    expect(answers[0]![0]).toBe(429);
    expect(answers[0]).toEqual(answers[1]);
    expect(await ctx.database.db.select().from(rateLimits)).toEqual([]);
    releaseAll();
    await Promise.all(held);
    await signIn(browser(ctx.app), "viewer@example.com");
  });

  it("does not let a flood refused by a full queue get past the five wrong passwords", async () => {
    const guess = (password: string) =>
      browser(ctx.app).form("/gateway/submit", { emailAddress: "viewer@example.com", password });
    const held = fillQueue();
    const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(`wrong-${i}`)));
    expect(refused.map((r) => r.status)).toEqual(Array(20).fill(429));
    releaseAll();
    await Promise.all(held);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await guess(`wrong-again-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await guess("demo-password-1")).status).toBe(429);
  });
});
