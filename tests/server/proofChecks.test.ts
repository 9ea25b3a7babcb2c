import { describe, expect, it } from "vitest";
import type { EngineRun } from "../../scripts/load/run.ts";
import { loadFailures } from "../../scripts/load/tables.ts";
import { operationsFailures, type OperationsResult } from "../../scripts/proof/operations.ts";
import { checkLog } from "../../scripts/proof/opsLog.ts";
import { sumOf } from "../../scripts/proof/opsMetrics.ts";

/* The judgements of `npm run proof`'s load and operations parts (scripts/proof/ops*.ts,
 * scripts/load/tables.ts): each names what it must, so a broken log, count or backup fails. */

const NONE = { anywhere: {}, inRequests: {} };
const line = (route: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    time: "2026-11-27T00:00:00.000Z",
    level: "info",
    requestId: "r1",
    method: "GET",
    route,
    status: 200,
    ms: 1.2,
    ...extra,
  });

describe("the request log check", () => {
  it("counts one well-formed line per request, leaving out the start-up probes and live sockets", () => {
    const text = [
      "Portal ready on http://127.0.0.1:1",
      line("/healthz"),
      line("/ws"),
      line("/api/v1/session"),
      line("/metrics"),
    ].join("\n");
    expect(checkLog(text, NONE)).toEqual({
      requests: 2,
      wellFormed: 2,
      malformed: 0,
      duplicateIds: 1,
      byRoute: { "GET /api/v1/session 200": 1, "GET /metrics 200": 1 },
      secretsFound: [],
    });
  });

  it("tells a line with a text status from a well-formed one, and counts an unreadable one (a line without its route is no request line: the count check misses it)", () => {
    const text = [
      line("/a", { route: undefined }),
      line("/b", { status: "200" }),
      "{not json",
      line("/c"),
    ].join("\n");
    expect(checkLog(text, NONE)).toMatchObject({ requests: 2, wellFormed: 1, malformed: 1 });
  });

  it("leaves a server's warning out of the requests", () => {
    const warn = JSON.stringify({ time: "t", level: "warn", requestId: "r9", message: "database away" });
    expect(checkLog([warn, line("/a")].join("\n"), NONE)).toMatchObject({ requests: 1, wellFormed: 1 });
  });

  it("names a secret anywhere in the log, and one the banner may print only in a request line", () => {
    const text = [
      "Demo sign-ins (password: demo-password-1)",
      line("/order/public/tok-123/pay"),
      "Error: card 4242424242424242 refused",
    ].join("\n");
    const found = checkLog(text, {
      anywhere: { "payment link": "tok-123", "card number": "4242424242424242", "session id": "s-1" },
      inRequests: { password: "demo-password-1" },
    });
    expect(found.secretsFound).toEqual(["payment link", "card number"]);
  });
});

describe("a series' sum", () => {
  it("adds the samples whose labels hold every part asked for", () => {
    const text = [
      "# HELP device_pushes_total pushes",
      'device_pushes_total{outcome="accepted",status="200"} 7',
      'device_pushes_total{outcome="accepted",status="201"} 3',
      'device_pushes_total{outcome="refused",status="401"} 2',
      'device_pushes_total_other{outcome="accepted"} 100',
      "live_clients 4",
    ].join("\n");
    expect(sumOf(text, "device_pushes_total", 'outcome="accepted"')).toBe(10);
    expect(sumOf(text, "device_pushes_total", 'status="401"')).toBe(2);
    expect(sumOf(text, "live_clients")).toBe(4);
  });
});

/** An operations result in which everything matches. */
function matching(): OperationsResult {
  return {
    database: "PostgreSQL",
    sent: {
      requests: 48,
      orders: 30,
      pushesAccepted: 10,
      pushesRefused: 3,
      charged: 2,
      declined: 1,
      unexpected: [],
      secrets: { anywhere: { "session id": "x" }, inRequests: {} },
    },
    metrics: {
      access: { local: 200, elsewhere: 404, wrongToken: 404, token: 200 },
      orders: 30,
      orderDurations: 30,
      pushesAccepted: 10,
      pushesRefused: 3,
      charged: 2,
      declined: 1,
      liveOpened: 2,
      liveGauge: 2,
      liveGaugeAfter: 0,
      poolTotal: 3,
      secretsFound: [],
      requests: 7,
    },
    log: {
      requests: 55,
      wellFormed: 55,
      malformed: 0,
      duplicateIds: 0,
      byRoute: {
        "GET /api/v1/orders/public/:ref 200": 30,
        "POST /api/v1/device-data/push 200": 10,
        "POST /api/v1/device-data/push 401": 3,
        "GET /metrics 200": 5,
      },
      secretsFound: [],
    },
    backup: { tables: 51, rows: 900, equal: 51, differing: [], bytes: 1, backupMs: 1, restoreMs: 1 },
  };
}

describe("the operations proof's judgement", () => {
  it("passes a run whose counts, log and backup all match", () => {
    expect(operationsFailures(matching())).toEqual([]);
  });

  it("fails a push the metrics missed, a scrape allowed from elsewhere, a secret logged and a table restored otherwise", () => {
    const r = matching();
    r.metrics.pushesAccepted = 9;
    r.metrics.access.elsewhere = 200;
    r.log.secretsFound = ["session id"];
    r.backup.differing = ["public.samples"];
    const problems = operationsFailures(r);
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toMatch(
      /pushes accepted counted 9 of 10[\s\S]*session id[\s\S]*public\.samples/,
    );
  });

  it("fails a log with a line fewer than the requests, and PostgreSQL without its pool gauge", () => {
    const r = matching();
    r.log.requests = 54;
    r.log.wellFormed = 54;
    r.metrics.poolTotal = null;
    expect(operationsFailures(r)).toEqual([
      "PostgreSQL operations: pool gauge missing on PostgreSQL",
      "PostgreSQL operations: request log lines 54 for 55 requests",
    ]);
  });

  it("fails a live gauge that stays up after its sockets closed, and a request logged without its route", () => {
    const r = matching();
    r.metrics.liveGaugeAfter = 2;
    r.log.byRoute = { ...r.log.byRoute, "GET unmatched 404": 1 };
    const problems = operationsFailures(r).join("\n");
    expect(problems).toMatch(/2 after they closed[\s\S]*by route/);
  });
});

describe("the load run's failures", () => {
  const run = (patch: Partial<EngineRun>): EngineRun =>
    ({
      engine: "PGlite",
      rows: [],
      storm: [],
      ingest: [],
      largest: 0,
      limitReached: true,
      ...patch,
    }) as EngineRun;
  /** A measured call of the load table: one of everything but what the case sets. */
  const callRow = (patch: Partial<EngineRun["rows"][number]>) => ({
    name: "",
    rps: 1,
    p50: 1,
    p99: 1,
    requests: 1,
    errors: 0,
    statuses: "",
    baseline: 1,
    serverCpu: 1,
    ...patch,
  });
  const step = { devices: 1000, pushes: 100, p50: 10, p99: 300, failed: 4, holds: false };

  it("leaves an overloaded server's 503s in a step past capacity alone, and fails a 500 or no answer there", () => {
    const held = { ...step, devices: 250, p99: 40, failed: 0, holds: true, unexpected: 0 };
    expect(loadFailures([run({ largest: 250, ingest: [held, { ...step, unexpected: 0 }] })], 1)).toEqual([]);
    expect(loadFailures([run({ largest: 250, ingest: [held, { ...step, unexpected: 2 }] })], 1)).toHaveLength(
      1,
    );
  });

  it("fails a ramp whose first step did not hold", () => {
    expect(
      loadFailures([run({ largest: 0, ingest: [{ ...step, devices: 250, unexpected: 0 }] })], 1),
    ).toEqual(["PGlite ingestion: not even 250 devices held"]);
  });

  it("fails a call answered other than 2xx, and a storm that did not sign everyone in", () => {
    const row = callRow({ name: "GET /api/v1/session", requests: 9, errors: 9, statuses: "401×9" });
    const signIns = { seconds: 1, statuses: "200×29 500×1", signedIn: 29, serverErrors: 1 };
    const storm = [{ order: { ...row, name: "GET public order", errors: 0 }, signIns }];
    expect(loadFailures([run({ rows: [row], storm })], 30)).toEqual([
      "PGlite GET /api/v1/session: 9 not answered 2xx (401×9)",
      "PGlite sign-in storm: 29 of 30 signed in (200×29 500×1)",
    ]);
  });

  it("counts one device's pushes that outwaited the generator as slow, and fails their 500s", () => {
    const push = callRow({
      name: "POST device push",
      rps: 34,
      p50: 517,
      p99: 7372,
      requests: 342,
      errors: 8,
    });
    expect(loadFailures([run({ rows: [{ ...push, statuses: "200×342" }] })], 1)).toEqual([]);
    expect(loadFailures([run({ rows: [{ ...push, statuses: "200×340 503×1 500×2" }] })], 1)).toEqual([
      "PGlite POST device push: 2 answered 5xx (200×340 503×1 500×2)",
    ]);
  });
});
