import { createServer } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { createMailer } from "../../server/services/mail.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig } from "./helpers.ts";
import { COLD_TEMP, useIngestApp } from "./ingestKit.ts";

/*
 * Exactly once with two instances: 100 rules on one channel, each telling its own address and
 * one webhook, so one push raises 100 alarms and queues 200 messages. Two schedulers (each as an
 * instance runs it, on its own connections on PostgreSQL) then work the same queue at once:
 * every message goes out once, none twice. On the embedded database the two take turns.
 */

const RULES = 100;

describe("alert delivery with two instances", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const seen: string[] = [];
  const hook = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push(JSON.parse(body).id);
      res.end();
    });
  });
  let hookUrl = "";
  beforeAll(async () => {
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/h`;
  });
  afterAll(() => new Promise((r) => hook.close(r)));

  it("delivers each of 200 messages exactly once while two schedulers claim the same rows", async () => {
    const app = buildApp({
      db: db(),
      config: testConfig({ WEBHOOK_PRIVATE: "loopback" }),
      now: () => TEST_NOW,
    });
    const admin = browser(app);
    await signIn(admin, "admin@example.com");
    for (let i = 0; i < RULES; i++) {
      const res = await admin.json("/api/v1/alerts/rules", {
        name: `Rule ${i}`,
        channelKey: COLD_TEMP,
        condition: { type: "above", high: 8, scale: "C" },
        notify: { emails: [`r${i}@example.net`], webhookUrls: [hookUrl] },
      });
      expect(res.status).toBe(200);
    }
    expect(
      (await push({ macAddress: "00:1A:2B:3C:4D:01", readings: [{ channelKey: COLD_TEMP, value: 9 }] }))
        .status,
    ).toBe(200);
    const instance = () =>
      alertTask({
        db: db(),
        mailer: createMailer(outboxStore(db()), undefined, () => TEST_NOW),
        origin: "http://portal.test",
        webhookPrivate: "loopback",
      });
    const a = instance();
    const b = instance();
    for (let round = 0; round < 20; round++) {
      await Promise.all([a(TEST_NOW), b(TEST_NOW), a(TEST_NOW), b(TEST_NOW)]);
      const [left] = await rows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from alert_deliveries where state = 'queued'`,
      );
      if (left!.n === 0) break;
    }
    const mail = await rows<{ to: string }>(db(), sql`select "to" from outbox`);
    expect(mail).toHaveLength(RULES);
    expect(new Set(mail.map((m) => m.to)).size).toBe(RULES);
    expect(seen).toHaveLength(RULES);
    expect(new Set(seen).size).toBe(RULES);
    const [stats] = await rows<{ sent: number; attempts: number }>(
      db(),
      sql`select count(*) filter (where state = 'sent')::int as sent, sum(attempts)::int as attempts from alert_deliveries`,
    );
    expect(stats).toEqual({ sent: 2 * RULES, attempts: 2 * RULES });
  }, 120_000);
});
