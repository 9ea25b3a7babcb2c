import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import { orderRecord } from "../../server/data/orders.ts";
import { lineOf, type RequestLine } from "../../server/http/requestLog.ts";
import { browser, signIn } from "./client.ts";
import { captureConsole, cardFormFor, orderRef, payPath } from "./guestPayKit.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * The request log (server/http/requestLog.ts): one JSON line per request, and nothing secret
 * in it. The requests below carry the demo's password, a card number and code, a real session
 * cookie, an order token in the path and tokens in query strings; the log must hold none.
 */

const PASSWORD = "demo-password-1";
const CARD = "4242 4242 4242 4242";
const CVV = "739";
const RESET_TOKEN = "reset-token-in-a-query-5d1f0a";
const VALIDATION_TOKEN = "validation-token-in-a-query-8c2e";
const PART_PAID = 5003;

/** What the app writes to stdout while the file runs (the console too, for the error lines). */
function captureStdout(): string[] {
  const written: string[] = [];
  beforeAll(() => {
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  return written;
}

const printed = captureConsole();
const written = captureStdout();
/** The lines written so far: the log writes a turn of the event loop's lines together, after it. */
const lines = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RequestLine);
};

describe("a request's line", () => {
  it("is one JSON object with its texts escaped, its time ISO and its duration to a tenth of a ms", () => {
    const text = lineOf("id-1", "GET", '/odd/"route"\\:x', 404, 12.345);
    expect(text.endsWith("\n")).toBe(true);
    const line = JSON.parse(text) as RequestLine;
    expect(line).toEqual({
      time: line.time,
      level: "info",
      requestId: "id-1",
      method: "GET",
      route: '/odd/"route"\\:x',
      status: 404,
      ms: 12.3,
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });
});

describe("the request log", () => {
  const ctx = useTestApp({ seeded: true });
  let app: ReturnType<typeof buildApp>;
  beforeAll(() => {
    app = buildApp({ db: ctx.database.db, config: testConfig({ LOG_REQUESTS: "1" }), now: () => TEST_NOW });
  });

  it("writes one JSON line per request: time, request id, method, route pattern, status, duration", async () => {
    written.length = 0;
    const ref = orderRef(PART_PAID);
    const res = await app.request(`/api/v1/orders/public/${ref}?token=${RESET_TOKEN}`);
    expect(res.status).toBe(200);
    const [line, ...more] = await lines();
    expect(more).toEqual([]);
    expect(Object.keys(line!)).toEqual(["time", "level", "requestId", "method", "route", "status", "ms"]);
    expect(line).toMatchObject({
      level: "info",
      requestId: res.headers.get("x-request-id"),
      method: "GET",
      route: "/api/v1/orders/public/:ref",
      status: 200,
    });
    expect(line!.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(line!.time)).not.toBeNaN();
  });

  it("writes the lines of requests answered together in one write", async () => {
    written.length = 0;
    const answers = await Promise.all([1, 2, 3].map((n) => app.request(`/api/v1/no-such-call/${n}`)));
    const ids = answers.map((res) => res.headers.get("x-request-id"));
    const logged = (await lines()).map((l) => l.requestId);
    expect(written).toHaveLength(1);
    expect([...logged].sort()).toEqual([...ids].sort());
  });

  it("names the refusing middleware's pattern for a request no route takes", async () => {
    written.length = 0;
    await app.request("/api/v1/no-such-call/ORD-1-secret");
    expect((await lines()).map((l) => [l.route, l.status])).toEqual([["/api/*", 404]]);
  });

  it("holds no password, card number or code, session cookie or token of the requests it logs", async () => {
    written.length = 0;
    const person = browser(app);
    await signIn(person, "admin@example.com", PASSWORD);
    await person.form("/gateway/submit", { emailAddress: "admin@example.com", password: `${PASSWORD}x` });
    await signIn(person, "admin@example.com", PASSWORD);
    const session = [...person.jar.values()];
    expect(session.length).toBeGreaterThan(0);
    expect((await person.get("/api/v1/session")).status).toBe(200);
    await person.get(`/gateway/reset-password/check?token=${RESET_TOKEN}`);
    await person.get(`/user/validate/check?token=${VALIDATION_TOKEN}`);
    await person.form("/gateway/reset-password", { token: RESET_TOKEN, password: PASSWORD });
    const balance = String((await orderRecord(ctx.database.db, PART_PAID))!.balanceDue);
    const card = cardFormFor(
      CVV,
      "log@example.org",
    )({ cardNumber: CARD, balanceDue: balance, paymentAmount: balance });
    expect((await browser(app).form(payPath(PART_PAID), card)).status).toBe(200);
    await person.form("/gateway/logout", {});

    expect((await lines()).length).toBeGreaterThanOrEqual(9);
    // Times, request ids and durations are digits and hex of their own: a three-digit code
    // may turn up in one by chance ("…:41.739Z"), so they are left out of the search.
    const log = [...written, ...printed].join("\n").replace(/"(time|requestId)":"[^"]*"|"ms":[\d.]+/g, "");
    const secrets = [PASSWORD, CVV, RESET_TOKEN, VALIDATION_TOKEN, orderRef(PART_PAID), ...session];
    expect(secrets.filter((s) => log.includes(s))).toEqual([]);
    expect(log).not.toMatch(/4242\D?4242\D?4242\D?4242/);
  });

  it("is off unless LOG_REQUESTS says otherwise under Vitest, and LOG_REQUESTS=0 turns it off", async () => {
    expect(testConfig().logRequests).toBe(false);
    expect(testConfig({ LOG_REQUESTS: "0" }).logRequests).toBe(false);
    written.length = 0;
    await ctx.app.request("/healthz");
    expect(written).toEqual([]);
  });
});

afterAll(() => vi.restoreAllMocks());
