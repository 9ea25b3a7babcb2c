import { createServer, type IncomingMessage } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { alertTask } from "../../server/flows/alertWork.ts";
import { rows } from "../../server/db/client.ts";
import { createMailer } from "../../server/services/mail.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { browser, signIn } from "./client.ts";
import { COLD_TEMP, NOW_S, useIngestApp } from "./ingestKit.ts";
import { TEST_NOW, testConfig } from "./helpers.ts";
import { buildApp } from "../../server/app.ts";
import { PRIVATE_REFUSED } from "../../server/services/webhooks.ts";

/** A receiver on this computer that records what the portal posts to it. */
function receiver() {
  const got: { headers: IncomingMessage["headers"]; body: string }[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end();
    });
  });
  return {
    got,
    fail: (s: number) => (status = s),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, "127.0.0.1", () =>
          r(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`),
        ),
      ),
    stop: () => new Promise((r) => server.close(r)),
  };
}

describe("alerting", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const hook = receiver();
  let hookUrl = "";
  beforeAll(async () => {
    hookUrl = await hook.start();
  });
  afterAll(() => hook.stop());

  const as = async (email: string, app = ctx.app) => {
    const b = browser(app);
    await signIn(b, email);
    return b;
  };
  /** One tick of an instance's alert scheduler at a time, with the test's mailer (the outbox). */
  const tick = (at: Date, policy: "loopback" | "deny" = "loopback") =>
    alertTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), undefined, () => at),
      origin: "http://portal.test",
      webhookPrivate: policy,
    })(at);
  const reading = (value: number, offset = 0) =>
    push({
      macAddress: "00:1A:2B:3C:4D:01",
      readings: [{ channelKey: COLD_TEMP, value, time: NOW_S + offset }],
    });
  const mail = () =>
    rows<{ to: string; subject: string; text: string }>(
      db(),
      sql`select "to", subject, text from outbox order by id`,
    );
  const rule = async (body: Record<string, unknown>, email = "admin@example.com", app = ctx.app) => {
    const b = await as(email, app);
    return b.json("/api/v1/alerts/rules", body);
  };
  const above8C = {
    name: "Cold room warm",
    channelKey: COLD_TEMP,
    condition: { type: "above", high: 8, scale: "C", deadBand: 0.5 },
    notify: { emails: ["oncall@example.net"], webhookUrls: [] as string[] },
  };

  it("triggers on a reading past the line, mails once, and clears past the dead band", async () => {
    const made = await rule(above8C);
    expect(made.status).toBe(200);
    expect((await reading(7.9)).status).toBe(200);
    const b = await as("viewer@example.com");
    expect((await (await b.get("/api/v1/alerts?state=active")).json()).data.alarms).toEqual([]);
    await reading(9.25, 10);
    const active = (await (await b.get("/api/v1/alerts?state=active")).json()).data.alarms;
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ state: "triggered", ruleName: "Cold room warm", limitText: "8.00 °C" });
    await tick(TEST_NOW);
    await tick(TEST_NOW);
    const sent = await mail();
    expect(sent.filter((m) => m.to === "oncall@example.net")).toHaveLength(1);
    expect(sent[0]!.subject).toContain("[ALARM] Cold room warm");
    expect(sent[0]!.text).toContain("http://portal.test/alerts/acknowledge?token=");
    // Inside the line but within the dead band: still in alarm.
    await reading(7.8, 20);
    expect((await (await b.get("/api/v1/alerts?state=active")).json()).data.alarms).toHaveLength(1);
    await reading(7.4, 30);
    expect((await (await b.get("/api/v1/alerts?state=active")).json()).data.alarms).toEqual([]);
    await tick(TEST_NOW);
    expect((await mail()).map((m) => m.subject.split("]")[0])).toEqual(["[ALARM", "[CLEARED"]);
  });

  it("waits for the delay: a blip shorter than it notifies nobody", async () => {
    await rule({ ...above8C, delaySeconds: 300 });
    await reading(9, -100);
    await reading(7, -50);
    await tick(new Date(TEST_NOW.getTime() + 600_000));
    expect(await mail()).toEqual([]);
    const all = await rows<{ n: number }>(db(), sql`select count(*)::int as n from alarms`);
    expect(all[0]!.n).toBe(0);
  });

  it("triggers when the condition held for the delay without another reading", async () => {
    await rule({ ...above8C, delaySeconds: 300 });
    await reading(9);
    await tick(new Date(TEST_NOW.getTime() + 100_000));
    expect(await mail()).toEqual([]);
    await tick(new Date(TEST_NOW.getTime() + 300_000));
    expect(await mail()).toHaveLength(1);
  });

  it("acknowledges with a required note, once, and stops the repeats", async () => {
    await rule({ ...above8C, repeatMinutes: 5 });
    await reading(9);
    const b = await as("manager@example.com");
    const [alarm] = (await (await b.get("/api/v1/alerts")).json()).data.alarms;
    await tick(TEST_NOW);
    await tick(new Date(TEST_NOW.getTime() + 5 * 60_000));
    expect((await mail()).map((m) => m.subject.split("]")[0])).toEqual(["[ALARM", "[STILL IN ALARM"]);
    const empty = await b.json(`/api/v1/alerts/${alarm.id}/acknowledge`, { note: "  " });
    expect(empty.status).toBe(400);
    expect((await empty.json()).data[0].message).toBe("Write a note saying what was done.");
    const ok = await b.json(`/api/v1/alerts/${alarm.id}/acknowledge`, { note: "Door was open; closed it." });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toMatchObject({
      state: "acknowledged",
      acknowledgedBy: "Max Manager (manager@example.com)",
    });
    const again = await b.json(`/api/v1/alerts/${alarm.id}/acknowledge`, { note: "again" });
    expect(again.status).toBe(409);
    await tick(new Date(TEST_NOW.getTime() + 20 * 60_000));
    expect(await mail()).toHaveLength(2);
    const detail = (await (await b.get(`/api/v1/alerts/${alarm.id}`)).json()).data;
    expect(detail.history.map((h: { kind: string }) => h.kind)).toEqual([
      "pending",
      "triggered",
      "repeated",
      "acknowledged",
    ]);
    expect(detail.history[3]).toMatchObject({ note: "Door was open; closed it.", entityType: 7 });
  });

  it("acknowledges from the emailed link only by its POST, as the address it went to", async () => {
    await rule(above8C);
    await reading(9);
    await tick(TEST_NOW);
    const token = /token=([A-Za-z0-9_-]+)/.exec((await mail())[0]!.text)![1]!;
    const anyone = browser(ctx.app);
    const seen = await anyone.get(`/api/v1/alerts/by-link?token=${token}`);
    expect(seen.status).toBe(200);
    expect((await seen.json()).data.alarm.state).toBe("triggered");
    expect((await anyone.get(`/api/v1/alerts/by-link?token=nope`)).status).toBe(404);
    const done = await anyone.json("/api/v1/alerts/by-link/acknowledge", { token, note: "On my way" });
    expect(done.status).toBe(200);
    expect((await done.json()).data).toMatchObject({
      state: "acknowledged",
      acknowledgedBy: "oncall@example.net",
    });
  });

  it("escalates to the next tier after its minutes unacknowledged", async () => {
    await rule({ ...above8C, escalation: [{ afterMinutes: 15, emails: ["boss@example.net"] }] });
    await reading(9);
    await tick(TEST_NOW);
    await tick(new Date(TEST_NOW.getTime() + 14 * 60_000));
    expect((await mail()).map((m) => m.to)).toEqual(["oncall@example.net"]);
    await tick(new Date(TEST_NOW.getTime() + 15 * 60_000));
    expect((await mail()).map((m) => m.to)).toEqual(["oncall@example.net", "boss@example.net"]);
  });

  it("posts a signed webhook with an event id, and retries a failing receiver", async () => {
    const b = await as("admin@example.com");
    const secret = (await (await b.get("/api/v1/alerts/webhook-secret")).json()).data.secret;
    // This computer's receiver: allowed as the demo allows it (WEBHOOK_PRIVATE=loopback).
    const demoLike = buildApp({
      db: db(),
      config: testConfig({ WEBHOOK_PRIVATE: "loopback" }),
      now: () => TEST_NOW,
    });
    const made = await rule(
      { ...above8C, notify: { emails: [], webhookUrls: [hookUrl] } },
      "admin@example.com",
      demoLike,
    );
    expect(made.status).toBe(200);
    hook.fail(500);
    await reading(9);
    await tick(TEST_NOW);
    expect(hook.got).toHaveLength(1);
    hook.fail(200);
    await tick(new Date(TEST_NOW.getTime() + 10_000));
    expect(hook.got).toHaveLength(1);
    await tick(new Date(TEST_NOW.getTime() + 31_000));
    expect(hook.got).toHaveLength(2);
    const last = hook.got[1]!;
    const expected = `sha256=${createHmac("sha256", secret).update(last.body).digest("hex")}`;
    expect(last.headers["x-portal-signature"]).toBe(expected);
    expect(last.headers["x-portal-event-id"]).toBe(hook.got[0]!.headers["x-portal-event-id"]);
    expect(JSON.parse(last.body)).toMatchObject({
      type: "alarm.triggered",
      alarm: { value: 9, limit: 8, unit: "°C" },
    });
    const [alarm] = (await (await b.get("/api/v1/alerts")).json()).data.alarms;
    const log = (await (await b.get(`/api/v1/alerts/${alarm.id}`)).json()).data.deliveries;
    expect(log[0].attempts.map((a: { ok: boolean; detail: string }) => [a.ok, a.detail])).toEqual([
      [false, "HTTP 500"],
      [true, "200"],
    ]);
  });

  it("refuses webhook URLs on private addresses unless the configuration allows them", async () => {
    for (const url of [
      "http://10.0.0.5/x",
      "http://169.254.169.254/latest",
      "http://[::1]:9/x",
      "http://localhost/x",
    ]) {
      const res = await rule({ ...above8C, notify: { emails: [], webhookUrls: [url] } });
      expect(res.status, url).toBe(400);
      expect((await res.json()).data[0].message).toBe(PRIVATE_REFUSED);
    }
  });

  it("reports a silent device after its interval and grace, and clears when it pushes", async () => {
    await db().execute(
      sql`update devices set last_message_at = ${TEST_NOW}, push_interval = 600 where mac_address = '00:1A:2B:3C:4D:01'`,
    );
    await rule({
      name: "Lab silent",
      deviceId: (
        await rows<{ id: number }>(db(), sql`select id from devices where mac_address = '00:1A:2B:3C:4D:01'`)
      )[0]!.id,
      condition: { type: "offline", graceSeconds: 120 },
      notify: { emails: ["oncall@example.net"] },
    });
    await tick(new Date(TEST_NOW.getTime() + 700_000));
    expect(await mail()).toEqual([]);
    await tick(new Date(TEST_NOW.getTime() + 721_000));
    expect((await mail()).map((m) => m.subject)).toEqual([expect.stringContaining("[ALARM] Lab silent")]);
    await db().execute(
      sql`update devices set last_message_at = ${new Date(TEST_NOW.getTime() + 722_000)} where mac_address = '00:1A:2B:3C:4D:01'`,
    );
    await tick(new Date(TEST_NOW.getTime() + 725_000));
    expect((await mail()).map((m) => m.subject.split("]")[0])).toEqual(["[ALARM", "[CLEARED"]);
  });

  it("counts rules against the plan's alert limit", async () => {
    await db().execute(
      sql`update subscriptions set limits = limits || '{"alerts": 1}'::jsonb where name = 'Acme Labs'`,
    );
    expect((await rule(above8C)).status).toBe(200);
    const second = await rule(above8C);
    expect(second.status).toBe(403);
    expect((await second.json()).data[0].message).toBe(
      "Your subscription plan includes 1 alert rule; delete one to make another.",
    );
  });

  it("lets Viewers read alarms and rules but not change them, and hides other subscriptions' rules", async () => {
    const made = (await (await rule(above8C)).json()).data;
    const viewer = await as("viewer@example.com");
    expect((await viewer.get("/api/v1/alerts/rules")).status).toBe(200);
    expect((await viewer.json("/api/v1/alerts/rules", above8C)).status).toBe(403);
    expect((await viewer.json(`/api/v1/alerts/rules/${made.id}`, { paused: true }, "PATCH")).status).toBe(
      403,
    );
    const other = await as("owner@northwind.example.com");
    expect((await other.json(`/api/v1/alerts/rules/${made.id}`, { paused: true }, "PATCH")).status).toBe(404);
    expect((await other.delete(`/api/v1/alerts/rules/${made.id}`)).status).toBe(404);
    const foreign = await other.json("/api/v1/alerts/rules", above8C);
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).data[0]).toEqual({
      field: "channelKey",
      message: "No such channel in this subscription.",
    });
  });
});
