import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { randomToken, sha256 } from "../../server/core/crypto.ts";
import { devices } from "../../server/db/schema/index.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { browser } from "./client.ts";
import { captureConsole, cardFormFor, orderRef, payPath } from "./guestPayKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/* GET /metrics (server/routes/metrics.ts): who may scrape it, and what its series count. */

const TOKEN = "metrics-token-for-tests-0123456789";
const MAC = "00:1A:2B:3C:4D:01";
const PUSH_KEY = randomToken();
const NOW_S = Math.floor(TEST_NOW.getTime() / 1000);
const PART_PAID = 5003;
const DECLINED_CARD = "4000000000000002";
const cardForm = cardFormFor("531", "metrics@example.org");

/** What app.request passes as the Node socket: the peer address getConnInfo reads. */
const from = (remoteAddress: string) => ({
  incoming: { socket: { remoteAddress, remotePort: 40000, remoteFamily: "IPv4" } },
});
const LOOPBACK = from("127.0.0.1");
const ELSEWHERE = from("203.0.113.9");

/** The value of the series `name` whose labels include all of `labels`, or undefined. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split("\n")
    .find(
      (l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && wanted.every((w) => l.includes(w)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

captureConsole();

describe("GET /metrics", () => {
  const ctx = useTestApp({ seeded: true });
  const scrape = async (app = ctx.app) => {
    const res = await app.request("http://localhost/metrics", {}, LOOPBACK);
    expect(res.status).toBe(200);
    return res.text();
  };
  const withToken = () =>
    buildApp({ db: ctx.database.db, config: testConfig({ METRICS_TOKEN: TOKEN }), now: () => TEST_NOW });

  it("answers Prometheus text to this computer", async () => {
    const res = await ctx.app.request("http://localhost/metrics", {}, LOOPBACK);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    for (const family of [
      "http_requests_total counter",
      "http_request_duration_seconds histogram",
      "device_pushes_total counter",
      "payment_charges_total counter",
      "live_clients gauge",
      "db_pool_connections gauge",
      "process_resident_memory_bytes gauge",
    ])
      expect(text).toContain(`# TYPE ${family}`);
  });

  it("answers another computer 404, as a path that does not exist", async () => {
    const res = await ctx.app.request("http://localhost/metrics", {}, ELSEWHERE);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: "Not found." }] });
  });

  it("does not take a forwarded-for header as loopback, from afar or through a proxy on this computer", async () => {
    const spoofed = { "x-forwarded-for": "127.0.0.1" };
    expect((await ctx.app.request("http://localhost/metrics", { headers: spoofed }, ELSEWHERE)).status).toBe(
      404,
    );
    expect((await ctx.app.request("http://localhost/metrics", { headers: spoofed }, LOOPBACK)).status).toBe(
      404,
    );
    // Every proxy names its header its own way; none of them is this computer.
    for (const name of [
      "x-cluster-client-ip",
      "fly-client-ip",
      "x-originating-ip",
      "x-forwarded",
      "forwarded-for",
      "cf-connecting-ip",
      "x-real-ip",
      "via",
      "client-ip",
      "x-proxyuser-ip",
      "true-client-ip",
    ]) {
      const res = await ctx.app.request(
        "http://localhost/metrics",
        { headers: { [name]: "8.8.8.8" } },
        LOOPBACK,
      );
      expect(res.status, name).toBe(404);
    }
    expect((await ctx.app.request("http://localhost/metrics", {}, LOOPBACK)).status).toBe(200);
  });

  it("answers another computer that sends METRICS_TOKEN, and only the right one", async () => {
    const app = withToken();
    const send = (authorization: string) =>
      app.request("http://localhost/metrics", { headers: { authorization } }, ELSEWHERE);
    expect((await send(`Bearer ${TOKEN}`)).status).toBe(200);
    expect((await send(`Bearer ${TOKEN}x`)).status).toBe(404);
    expect((await send(TOKEN)).status).toBe(404);
    // Without METRICS_TOKEN no bearer opens it, not even an empty one.
    expect(
      (
        await ctx.app.request(
          "http://localhost/metrics",
          { headers: { authorization: "Bearer " } },
          ELSEWHERE,
        )
      ).status,
    ).toBe(404);
  });

  it("refuses a METRICS_TOKEN shorter than 16 characters at start", () => {
    expect(() => testConfig({ METRICS_TOKEN: "short" })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
  });

  it("counts requests by route pattern and status, never by URL", async () => {
    const ref = orderRef(PART_PAID);
    const before = await scrape();
    const route = { method: "GET", route: "/api/v1/orders/public/:ref", status: "200" };
    expect((await ctx.app.request(`/api/v1/orders/public/${ref}`)).status).toBe(200);
    expect((await ctx.app.request(`/api/v1/orders/public/${ref}`)).status).toBe(200);
    const after = await scrape();
    expect(
      (valueOf(after, "http_requests_total", route) ?? 0) -
        (valueOf(before, "http_requests_total", route) ?? 0),
    ).toBe(2);
    expect(valueOf(after, "http_request_duration_seconds_count", route)).toBeGreaterThanOrEqual(2);
    expect(after).not.toContain(ref);
    // A path no route has is one series, whatever the path.
    // (A word, not digits: a duration sum may hold any run of digits.)
    await ctx.app.request("/api/v1/nothing-here/no-such-segment");
    expect(await scrape()).not.toContain("no-such-segment");
  });

  it("counts device pushes accepted and refused", async () => {
    await ctx.database.db
      .update(devices)
      .set({ ingestKeyHash: sha256(PUSH_KEY) })
      .where(eq(devices.macAddress, MAC));
    const push = (key: string) =>
      ctx.app.request("/api/v1/device-data/push", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Device ${key}` },
        body: JSON.stringify({
          macAddress: MAC,
          readings: [{ channelKey: `${MAC}_W1A001_1200_0_1`, value: 4.5, time: NOW_S - 30 }],
        }),
      });
    const accepted = { outcome: "accepted", status: "200" };
    const refused = { outcome: "refused", status: "401" };
    const before = await scrape();
    expect((await push(PUSH_KEY)).status).toBe(200);
    expect((await push("not-the-key")).status).toBe(401);
    expect((await push("not-the-key")).status).toBe(401);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      (valueOf(after, "device_pushes_total", labels) ?? 0) -
      (valueOf(before, "device_pushes_total", labels) ?? 0);
    expect(delta(accepted)).toBe(1);
    expect(delta(refused)).toBe(2);
  });

  it("counts card charges by outcome, and a retry with the same key not again", async () => {
    const balance = String((await orderRecord(ctx.database.db, PART_PAID))!.balanceDue);
    const form = (over: Record<string, string> = {}) =>
      cardForm({ balanceDue: balance, paymentAmount: balance, ...over });
    const before = await scrape();
    const declined = await browser(ctx.app).form(payPath(PART_PAID), form({ cardNumber: DECLINED_CARD }));
    expect(declined.status).toBe(402);
    const paid = form();
    expect((await browser(ctx.app).form(payPath(PART_PAID), paid)).status).toBe(200);
    expect((await browser(ctx.app).form(payPath(PART_PAID), paid)).status).toBe(200);
    const after = await scrape();
    const delta = (outcome: string) =>
      (valueOf(after, "payment_charges_total", { outcome }) ?? 0) -
      (valueOf(before, "payment_charges_total", { outcome }) ?? 0);
    expect(delta("declined")).toBe(1);
    expect(delta("charged")).toBe(1);
  });

  it("reads live clients and failed session checks from the app's hub", async () => {
    const live = { size: () => 3, recheckErrors: () => 2, close: async () => {} } as never;
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, live });
    expect(valueOf(await scrape(app), "live_clients")).toBe(3);
    expect(valueOf(await scrape(app), "live_recheck_errors_total")).toBe(2);
    expect(valueOf(await scrape(), "live_clients")).toBe(0);
  });

  it("shows the PostgreSQL pool's connections, and none on PGlite", async () => {
    const text = await scrape();
    if (ctx.database.kind === "postgres") {
      expect(valueOf(text, "db_pool_connections", { state: "total" })).toBeGreaterThan(0);
      expect(valueOf(text, "db_pool_connections", { state: "waiting" })).toBe(0);
    } else expect(valueOf(text, "db_pool_connections")).toBeUndefined();
  });
});
