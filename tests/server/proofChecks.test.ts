import { describe, expect, it } from "vitest";
import type { EngineRun } from "../../scripts/load/run.ts";
import { loadFailures } from "../../scripts/load/tables.ts";
import { operationsFailures, type OperationsResult } from "../../scripts/proof/operations.ts";
import { checkLog } from "../../scripts/proof/opsLog.ts";
import { sumOf } from "../../scripts/proof/opsMetrics.ts";

/* The judgements of `npm run proof`'s load and operations parts (scripts/proof/ops*.ts,
 * scripts/load/tables.ts): each names what it must, so a broken log, count or backup fails. */

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
    expect(checkLog(text, {})).toEqual({ requests: 2, wellFormed: 2, malformed: 0, secretsFound: [] });
  });

  it("tells a line without its route or with a text status from a well-formed one, and an unreadable one", () => {
    const text = [
      line("/a", { route: undefined }),
      line("/b", { status: "200" }),
      "{not json",
      line("/c"),
    ].join("\n");
    expect(checkLog(text, {})).toMatchObject({ requests: 3, wellFormed: 1, malformed: 1 });
  });

  it("names each secret found in a request line, not one the start-up banner prints", () => {
    const text = ["Demo sign-ins (password: demo-password-1)", line("/order/public/tok-123/pay")].join("\n");
    const found = checkLog(text, {
      password: "demo-password-1",
      "payment link": "tok-123",
      "card number": "4242424242424242",
    });
    expect(found.secretsFound).toEqual(["payment link"]);
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
      secrets: { password: "x" },
    },
    metrics: {
      access: { local: 200, elsewhere: 404, wrongToken: 404, token: 200 },
      orders: 30,
      pushesAccepted: 10,
      pushesRefused: 3,
      charged: 2,
      declined: 1,
      liveOpened: 2,
      liveGauge: 2,
      poolTotal: 3,
      durationSeries: 9,
      requests: 5,
    },
    log: { requests: 53, wellFormed: 53, malformed: 0, secretsFound: [] },
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
    r.log.requests = 52;
    r.log.wellFormed = 52;
    r.metrics.poolTotal = null;
    expect(operationsFailures(r)).toEqual([
      "PostgreSQL operations: pool gauge missing on PostgreSQL",
      "PostgreSQL operations: request log lines 52 for 53 requests",
    ]);
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
  const step = { devices: 1000, pushes: 100, p50: 10, p99: 300, failed: 4, holds: false };

  it("leaves the push queue's 503s in a step past capacity alone, and fails a 500 or no answer there", () => {
    expect(loadFailures([run({ ingest: [{ ...step, unexpected: 0 }] })])).toEqual([]);
    expect(loadFailures([run({ ingest: [{ ...step, unexpected: 2 }] })])).toHaveLength(1);
  });

  it("fails a call with a 5xx or a request left without an answer", () => {
    const row = {
      name: "GET public order",
      rps: 1,
      p50: 1,
      p99: 1,
      requests: 1,
      errors: 1,
      serverErrors: 1,
      statuses: "502×1",
      baseline: 1,
      serverCpu: 1,
    };
    expect(loadFailures([run({ rows: [row] })])).toEqual([
      "PGlite GET public order: 1 without an answer or 5xx (502×1)",
    ]);
  });
});
