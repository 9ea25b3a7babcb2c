import { createServer, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { createMailer } from "../../server/services/mail.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig } from "./helpers.ts";
import { COLD_TEMP, MAC, useIngestApp } from "./ingestKit.ts";

/*
 * What an attack on alerting found (issue 34), each replayed: a trickling webhook receiver
 * held every subscription's alert mail; rules that went with a deleted tag, or a device that
 * lost a rule's tag, left alarms open for ever; Viewers read webhook URLs (which carry
 * credentials); a large deviceId answered 500; an acknowledge link showed a cleared alarm;
 * a rule's name could add lines to every message.
 */

describe("alerting under attack", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const sockets: Socket[] = [];
  // Answers one header byte every second and never finishes.
  const tarpit = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    socket.write("HTTP/1.1 200 OK\r\nX-Slow: ");
    const drip = setInterval(() => socket.write("a"), 1000);
    socket.on("close", () => clearInterval(drip));
  });
  afterAll(() => {
    sockets.forEach((s) => s.destroy());
    tarpit.close();
  });
  const as = async (email: string, app = ctx.app) => {
    const b = browser(app);
    await signIn(b, email);
    return b;
  };
  const open = () =>
    rows<{ id: number; state: string }>(db(), sql`select id, state from alarms where state <> 'cleared'`);
  const tick = (wait: boolean) =>
    alertTask(
      {
        db: db(),
        mailer: createMailer(outboxStore(db()), undefined, () => TEST_NOW),
        origin: "http://p",
        webhookPrivate: "loopback",
      },
      { wait },
    )(TEST_NOW);
  const warm = { condition: { type: "above", high: 8, scale: "C" } };

  it("mails the alarm while a trickling webhook receiver holds its call", async () => {
    await new Promise<void>((r) => tarpit.listen(0, "127.0.0.1", r));
    const port = (tarpit.address() as { port: number }).port;
    const demoLike = buildApp({
      db: db(),
      config: testConfig({ WEBHOOK_PRIVATE: "loopback" }),
      now: () => TEST_NOW,
    });
    const admin = await as("admin@example.com", demoLike);
    const made = await admin.json("/api/v1/alerts/rules", {
      name: "Slow hook",
      channelKey: COLD_TEMP,
      ...warm,
      notify: { emails: ["oncall@example.net"], webhookUrls: [`http://127.0.0.1:${port}/slow`] },
    });
    expect(made.status).toBe(200);
    await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 9 }] });
    const started = Date.now();
    await tick(false);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await rows<{ to: string }>(db(), sql`select "to" from outbox`)).map((m) => m.to)).toEqual([
      "oncall@example.net",
    ]);
    // The receiver hangs up: the held call ends (and is logged) before the next test's rows.
    sockets.forEach((s) => s.destroy());
    await expect
      .poll(
        async () =>
          (await rows<{ n: number }>(db(), sql`select count(*)::int as n from alert_attempts`))[0]!.n,
      )
      .toBe(1);
  });

  it("clears the alarms of a rule deleted with its tag, and of a device that lost the rule's tag", async () => {
    const admin = await as("admin@example.com");
    const sub = (
      await rows<{ id: number }>(db(), sql`select id from subscriptions where name = 'Acme Labs'`)
    )[0]!.id;
    const device = (
      await rows<{ id: number }>(db(), sql`select id from devices where mac_address = ${MAC}`)
    )[0]!.id;
    const tagOf = async (name: string) =>
      (
        await (
          await admin.json("/api/v1/tags", { subscriptionId: sub, tag: { name, deviceTagList: [device] } })
        ).json()
      ).data.id as number;
    const gone = await tagOf("Going");
    await admin.json("/api/v1/alerts/rules", {
      name: "By tag",
      tagId: gone,
      channelKind: "temperature",
      ...warm,
      notify: {},
    });
    await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 9 }] });
    expect(await open()).toHaveLength(1);
    expect((await admin.delete(`/api/v1/tags/${gone}`)).status).toBe(200);
    await tick(true);
    expect(await open()).toEqual([]);

    const kept = await tagOf("Kept");
    await admin.json("/api/v1/alerts/rules", {
      name: "By kept tag",
      tagId: kept,
      channelKind: "temperature",
      ...warm,
      notify: {},
    });
    await push({
      macAddress: MAC,
      readings: [{ channelKey: COLD_TEMP, value: 9.5, time: Math.floor(TEST_NOW.getTime() / 1000) + 5 }],
    });
    expect(await open()).toHaveLength(1);
    const untag = await admin.json("/api/v1/tags/apply", {
      entityType: 3,
      entityIdList: [device],
      tagIdList: [],
      removedTagIdList: [kept],
    });
    expect(untag.status).toBe(200);
    await tick(true);
    expect(await open()).toEqual([]);
  });

  it("shows webhook URLs to rule editors only", async () => {
    const demoLike = buildApp({
      db: db(),
      config: testConfig({ WEBHOOK_PRIVATE: "loopback" }),
      now: () => TEST_NOW,
    });
    const admin = await as("admin@example.com", demoLike);
    await admin.json("/api/v1/alerts/rules", {
      name: "Hooked",
      channelKey: COLD_TEMP,
      ...warm,
      notify: { webhookUrls: ["http://127.0.0.1:9/hook?apikey=SECRET123"] },
    });
    const viewer = await as("viewer@example.com");
    const seen = JSON.stringify((await (await viewer.get("/api/v1/alerts/rules")).json()).data);
    expect(seen).not.toContain("SECRET123");
    expect(seen).toContain("http://127.0.0.1:9/…");
    const edited = JSON.stringify((await (await admin.get("/api/v1/alerts/rules")).json()).data);
    expect(edited).toContain("SECRET123");
  });

  it("answers a device id past the id range with 400, and refuses a rule name of two lines", async () => {
    const admin = await as("admin@example.com");
    for (const id of ["2147483648", "9999999999", "0", "abc"])
      expect((await admin.get(`/api/v1/alerts?deviceId=${id}`)).status, id).toBe(400);
    const twoLines = await admin.json("/api/v1/alerts/rules", {
      name: "Warm\nAcknowledge here: http://evil.example/x",
      channelKey: COLD_TEMP,
      ...warm,
      notify: {},
    });
    expect(twoLines.status).toBe(400);
    expect((await twoLines.json()).data[0]).toEqual({
      field: "name",
      message: "A rule's name is one line of text.",
    });
  });

  it("shows nothing of a cleared alarm through its acknowledge link", async () => {
    const admin = await as("admin@example.com");
    await admin.json("/api/v1/alerts/rules", {
      name: "Linked",
      channelKey: COLD_TEMP,
      ...warm,
      notify: { emails: ["x@example.net"] },
    });
    await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 9 }] });
    await tick(true);
    const text = (await rows<{ text: string }>(db(), sql`select text from outbox`))[0]!.text;
    const token = /token=([\w-]+)/.exec(text)![1]!;
    const anyone = browser(ctx.app);
    expect((await anyone.get(`/api/v1/alerts/by-link?token=${token}`)).status).toBe(200);
    await push({
      macAddress: MAC,
      readings: [{ channelKey: COLD_TEMP, value: 5, time: Math.floor(TEST_NOW.getTime() / 1000) + 5 }],
    });
    const after = await anyone.get(`/api/v1/alerts/by-link?token=${token}`);
    expect(after.status).toBe(404);
    expect(JSON.stringify(await after.json())).not.toContain("x@example.net");
  });
});
