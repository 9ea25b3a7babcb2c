import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { answerCache, type AnswerCache } from "../../server/core/answerCache.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { rows } from "../../server/db/client.ts";
import { acceptsGzip, GZIP_FROM_BYTES } from "../../server/http/reply.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { cardFormFor, orderRef, payPath } from "./guestPayKit.ts";
import { cachingApp, testConfig, useTestApp } from "./helpers.ts";

// The anonymous public reads' microcache (server/core/answerCache.ts, server/http/answers.ts).

/**
 * The app over a real answer cache (10 s), watched: `onPut` sees each answer kept,
 * `onGeneration` each read of the generation, after it was read.
 */
function watchedCacheApp(
  db: Parameters<typeof buildApp>[0]["db"],
  watch: { onPut?: () => void; onGeneration?: (real: AnswerCache) => void },
) {
  const real = answerCache({ ttlMs: 10_000, maxEntries: 100 });
  const cache: AnswerCache = {
    read: (key, load, maxAgeMs) => real.read(key, load, maxAgeMs),
    peek: (key, maxAgeMs) => real.peek(key, maxAgeMs),
    put: (key, value, spread, since) => {
      watch.onPut?.();
      real.put(key, value, spread, since);
    },
    clear: () => real.clear(),
    get size() {
      return real.size;
    },
    ttlMs: real.ttlMs,
    get generation() {
      const generation = real.generation;
      watch.onGeneration?.(real);
      return generation;
    },
  };
  return { real, app: buildApp({ db, config: testConfig({ ANSWER_CACHE_MS: "10000" }), answers: cache }) };
}

describe("the answer cache", () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it("answers a key from one load until its time is up", async () => {
    const time = clock();
    const cache = answerCache({ ttlMs: 1000, maxEntries: 10, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read("a", load)).toBe(1);
    time.advance(999);
    expect(await cache.read("a", load)).toBe(1);
    time.advance(1);
    expect(await cache.read("a", load)).toBe(2);
  });

  it("shares one load among concurrent misses, and keeps no failure", async () => {
    const cache = answerCache({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++loads), 20));
    expect(await Promise.all([1, 2, 3].map(() => cache.read("a", slow)))).toEqual([1, 1, 1]);
    const failing = () => Promise.reject(new Error("database away"));
    await expect(cache.read("b", failing)).rejects.toThrow("database away");
    expect(await cache.read("b", async () => "back")).toBe("back");
  });

  it("forgets on clear, the oldest beyond its size, and expired entries as new ones come", async () => {
    const time = clock();
    const cache = answerCache({ ttlMs: 1000, maxEntries: 2, now: time.now });
    await cache.read("a", async () => 1);
    await cache.read("b", async () => 1);
    await cache.read("c", async () => 1);
    expect(cache.size).toBe(2);
    expect(await cache.read("a", async () => 2)).toBe(2);
    time.advance(1000);
    await cache.read("d", async () => 1);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("answers a fresher answer asked for from a load at most that old, shared while it runs", async () => {
    const time = clock();
    const cache = answerCache({ ttlMs: 1000, maxEntries: 10, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    await cache.read("a", load);
    time.advance(50);
    expect(await cache.read("a", load, 100)).toBe(1);
    time.advance(50);
    expect(await cache.read("a", load, 100)).toBe(2);
    expect(await cache.read("a", load, 100)).toBe(2);
  });

  it("keeps a put answer for the time less its random share of the spread, so a burst expires spread out", async () => {
    const time = clock();
    const draws = [0, 1, 0.5];
    const cache = answerCache({ ttlMs: 1000, maxEntries: 10, now: time.now, random: () => draws.shift()! });
    cache.put("full", "a", 0.5);
    cache.put("half", "b", 0.5);
    cache.put("three-quarters", "c", 0.5);
    time.advance(499);
    expect(await cache.peek("half")).toBe("b");
    time.advance(1);
    expect(cache.peek("half")).toBeUndefined();
    time.advance(249);
    expect(await cache.peek("three-quarters")).toBe("c");
    time.advance(1);
    expect(cache.peek("three-quarters")).toBeUndefined();
    time.advance(249);
    expect(await cache.peek("full")).toBe("a");
    time.advance(1);
    expect(cache.peek("full")).toBeUndefined();
    const off = answerCache({ ttlMs: 0, maxEntries: 10 });
    off.put("x", 1);
    expect(off.size).toBe(0);
  });

  it("keeps no put answer that was made across a clear", async () => {
    const cache = answerCache({ ttlMs: 1000, maxEntries: 10, now: clock().now });
    const before = cache.generation;
    cache.clear();
    cache.put("made-before-the-write", "old", 0, before);
    expect(cache.peek("made-before-the-write")).toBeUndefined();
    cache.put("made-after", "new", 0, cache.generation);
    expect(await cache.peek("made-after")).toBe("new");
  });

  it("caches nothing with a time of 0", async () => {
    const cache = answerCache({ ttlMs: 0, maxEntries: 10 });
    let loads = 0;
    await cache.read("a", async () => ++loads);
    expect(await cache.read("a", async () => ++loads)).toBe(2);
    expect(cache.size).toBe(0);
  });
});

describe("Accept-Encoding", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, GZIP;q=0.5", true],
    ["x-gzip", true],
    ["*", true],
    ["deflate, *;q=0", false],
    ["gzipfoo", false],
    ["gzip-x, deflate", false],
    ["gzip;q=abc", false],
    ["gzip;q=0", false],
    ["deflate, gzip ; q=0.000", false],
    ["", false],
    [undefined, false],
  ])("takes gzip from %j: %s", (accept, takes) => {
    expect(acceptsGzip(accept)).toBe(takes);
  });
});

describe("the public reads, cached", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  // A long time, so only a write or a fresh-answer request can change what is read.
  beforeAll(() => {
    app = cachingApp(ctx.database.db);
  });
  const ORDER = 5003;
  const orderPath = `/api/v1/orders/public/${orderRef(ORDER)}`;
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const res = await app.request(`http://localhost${path}`, { headers });
    expect(res.status, path).toBe(200);
    return (await res.json()).data;
  };
  /** Changes the order behind the API's back, as another instance's write would look here. */
  const changeTaxDirectly = (tax: number) =>
    ctx.database.db.execute(sql`update orders set tax = ${tax} where id = ${ORDER}`);

  it("reuses a public order's answer until a visitor asks for a fresh one", async () => {
    const first = (await read(orderPath)).orderDetails;
    await changeTaxDirectly(first.taxCents + 100);
    expect((await read(orderPath)).orderDetails.taxCents).toBe(first.taxCents);
    // A fresh answer asked for may be up to 100 ms old (a reload loop cannot force a read each time).
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await read(orderPath, { "cache-control": "no-cache" })).orderDetails.taxCents).toBe(
      first.taxCents + 100,
    );
  });

  it("reads afresh after a payment on this instance: the balance is never the old one", async () => {
    const before = (await read(orderPath)).orderDetails;
    expect(before.paymentBalanceDue).toBeGreaterThan(0);
    const balance = String((await orderRecord(ctx.database.db, ORDER))!.balanceDue);
    const pay = cardFormFor("123", "guest@example.com")({ balanceDue: balance, paymentAmount: balance });
    const res = await browser(app).form(payPath(ORDER), pay);
    expect(res.status).toBe(200);
    expect((await read(orderPath)).orderDetails).toMatchObject({
      paymentBalanceDue: 0,
      billingStatus: "Paid",
    });
  });

  it("gives each visitor their own member path from the shared answer", async () => {
    expect((await read(orderPath)).orderDetails.memberPath).toBeNull();
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const res = await admin.get(orderPath);
    expect((await res.json()).data.orderDetails.memberPath).toBe(`/s/order/details/${ORDER}`);
    expect((await read(orderPath)).orderDetails.memberPath).toBeNull();
  });

  it("sends one serialized answer plain or gzipped, as each visitor accepts", async () => {
    const plain = await app.request(`http://localhost${orderPath}`, {
      headers: { "accept-encoding": "br;q=1, gzip;q=0" },
    });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const text = await plain.text();
    const zipped = await app.request(`http://localhost${orderPath}`, {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(zipped.headers.get("cache-control")).toBe("no-store");
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(text);
  });

  it("reuses a session's own check until a write on this instance, and never another session's", async () => {
    const renameDirectly = (first: string) =>
      ctx.database.db.execute(sql`update users set first_name = ${first} where email = 'admin@example.com'`);
    const firstName = async (b: Browser) => {
      const res = await b.get("/api/v1/session");
      return res.status === 200 ? (await res.json()).data.sessionInformation.firstName : res.status;
    };
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const viewer = browser(app);
    await signIn(viewer, "viewer@example.com");
    expect(await firstName(admin)).toBe("Ada");
    await renameDirectly("Adele");
    expect([await firstName(admin), await firstName(viewer)]).toEqual(["Ada", "Vera"]);
    expect(await firstName(browser(app))).toBe(401);
    await viewer.json("/api/v1/session/settings", { temperatureScale: "C" }, "PATCH");
    expect(await firstName(admin)).toBe("Adele");
    const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    await admin.form("/gateway/logout", {});
    const old = await app.request("http://localhost/api/v1/session", { headers: { cookie } });
    expect(old.status).toBe(401);
    await renameDirectly("Ada");
  });

  it("makes one answer for checks of one session that arrive together, and each its own when that one is refused", async () => {
    let kept = 0;
    const { real, app: shared } = watchedCacheApp(ctx.database.db, { onPut: () => kept++ });
    const admin = browser(shared);
    await signIn(admin, "admin@example.com");
    real.clear();
    const together = await Promise.all(Array.from({ length: 10 }, () => admin.get("/api/v1/session")));
    expect(together.map((r) => r.status)).toEqual(Array(10).fill(200));
    const names = await Promise.all(
      together.map(async (r) => (await r.json()).data.sessionInformation.firstName),
    );
    expect(names).toEqual(Array(10).fill("Ada"));
    expect(kept).toBe(1);
    const gone = browser(shared);
    gone.jar.set(SESSION_COOKIE, "no-such-session-token");
    const refused = await Promise.all(Array.from({ length: 5 }, () => gone.get("/api/v1/session")));
    expect(refused.map((r) => r.status)).toEqual(Array(5).fill(401));
  });

  it("keeps no session answer made while a write ran: the next check reads afresh", async () => {
    // A cache whose generation, read as a session check begins, is followed at once by a
    // write's clear(): the check's answer was made across that write.
    let writeAsNextCheckBegins = false;
    const { app: raced } = watchedCacheApp(ctx.database.db, {
      onGeneration: (real) => {
        if (!writeAsNextCheckBegins) return;
        writeAsNextCheckBegins = false;
        real.clear();
      },
    });
    const admin = browser(raced);
    await signIn(admin, "admin@example.com");
    const firstName = async () =>
      (await (await admin.get("/api/v1/session")).json()).data.sessionInformation.firstName;
    writeAsNextCheckBegins = true;
    expect(await firstName()).toBe("Ada");
    await ctx.database.db.execute(
      sql`update users set first_name = 'Adele' where email = 'admin@example.com'`,
    );
    try {
      expect(await firstName()).toBe("Adele");
      expect(await firstName()).toBe("Adele");
    } finally {
      await ctx.database.db.execute(
        sql`update users set first_name = 'Ada' where email = 'admin@example.com'`,
      );
    }
  });

  it("stays filled through a flood of refused writes, and empties on one that is answered", async () => {
    const first = (await read(orderPath)).orderDetails;
    await changeTaxDirectly(first.taxCents + 7);
    for (let i = 0; i < 20; i++) {
      const refused = await app.request("http://localhost/api/v1/no-such-call", {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
        body: "{}",
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
    }
    expect((await read(orderPath)).orderDetails.taxCents).toBe(first.taxCents);
    const viewer = browser(app);
    await signIn(viewer, "viewer@example.com");
    await viewer.json("/api/v1/session/settings", { temperatureScale: "F" }, "PATCH");
    expect((await read(orderPath)).orderDetails.taxCents).toBe(first.taxCents + 7);
    await changeTaxDirectly(first.taxCents);
  });

  it("never compresses a plain chart answer again for a visitor who takes deflate or nothing", async () => {
    const dataPath = `/api/v1/device-data/public/report/data/${DEMO.reportHash}`;
    for (const accept of ["deflate", "identity", "deflate, gzip;q=0"]) {
      const res = await app.request(`http://localhost${dataPath}`, {
        headers: { "accept-encoding": accept },
      });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-encoding"), accept).toBeNull();
      expect(JSON.parse(await res.text()).success).toBe(true);
    }
    // "*" takes gzip, but this answer is under GZIP_FROM_BYTES: it goes plain, never zipped per
    // request (attack12.test.ts sends "*" a zipped one).
    const any = await app.request(`http://localhost${dataPath}`, { headers: { "accept-encoding": "*" } });
    expect((await any.text()).length).toBeLessThan(GZIP_FROM_BYTES);
    expect(any.headers.get("content-encoding")).toBeNull();
  });

  it("reads one order once however its reference is written", async () => {
    const first = (await read(orderPath)).orderDetails;
    await changeTaxDirectly(first.taxCents + 3);
    const ref = orderRef(ORDER);
    const variants = [
      ref.replace(/^ORD-/, ""),
      ref.replace(/^ORD-/, "ord-"),
      ref.replace(/^ORD-/, "ORD-000"),
      `${ref}%20`,
    ];
    for (const v of variants)
      expect((await read(`/api/v1/orders/public/${v}`)).orderDetails.taxCents, v).toBe(first.taxCents);
    await changeTaxDirectly(first.taxCents);
  });

  it("shows a paused report link as gone at once on this instance", async () => {
    const metaPath = `/api/v1/device-data/public/report/${DEMO.fixedReportHash}`;
    await read(metaPath);
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    const [report] = await rows<{ id: number }>(
      ctx.database.db,
      sql`select id from reports where public_hash = ${DEMO.fixedReportHash}`,
    );
    const paused = await admin.json(`/api/v1/reports/${report!.id}/public-link`, { paused: true }, "PATCH");
    expect(paused.status).toBe(200);
    expect((await app.request(`http://localhost${metaPath}`)).status).toBe(404);
  });
});
