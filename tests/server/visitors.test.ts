import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { alertTask } from "../../server/flows/alertWork.ts";
import { MAX_SUBSCRIBERS } from "../../server/flows/visitorSubscriptions.ts";
import { createMailer } from "../../server/services/mail.ts";
import { DEMO } from "../../server/seed/demo.ts";
import {
  ALREADY_CONFIRMED,
  CHECK_INBOX,
  CONFIRM_UNUSABLE,
  REPORT_FULL,
  SUBSCRIPTIONS_OFF,
} from "../../src/api/visitors.ts";
import { INVALID_EMAIL } from "../../src/domain/auth.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig } from "./helpers.ts";
import { COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";
import { smtpSink } from "./smtpSink.ts";

/*
 * Visitors' alarm subscriptions to a public report (issue 36): double opt-in whose links change
 * nothing by GET, the same answer for every address, limits, the owner's switch, messages at
 * most once per 10 minutes per report and address (a digest at the window's end), exactly once
 * with two schedulers, and unsubscribing by page or by a mail client's one-click POST.
 */

const SUBSCRIBE = `/api/v1/device-data/public/report/${DEMO.reportHash}/subscriptions`;
const MINUTE = 60_000;

describe("visitor subscriptions", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const visitor = () => browser(appAt(TEST_NOW));
  function appAt(now: Date) {
    return buildApp({ db: db(), config: testConfig(), now: () => now });
  }
  const subscribeAs = (email: string, b = visitor()) => b.json(SUBSCRIBE, { email });
  const outbox = () =>
    rows<{ to: string; subject: string; text: string }>(
      db(),
      sql`select "to", subject, text from outbox order by id`,
    );
  const tokenIn = (text: string, page: string) =>
    new RegExp(`/visitors/${page}\\?token=([\\w-]+)`).exec(text)?.[1] ?? "";
  const state = async (email: string) =>
    (
      await rows<{ state: string }>(db(), sql`select state from visitor_subscribers where email = ${email}`)
    )[0]?.state;

  /** Subscribes and confirms through the mailed link's page button. */
  async function confirmed(email: string) {
    const b = visitor();
    expect((await subscribeAs(email, b)).status).toBe(200);
    const mail = (await outbox()).filter((m) => m.to === email).at(-1)!;
    const res = await b.json("/api/v1/visitor-subscriptions/confirm", {
      token: tokenIn(mail.text, "confirm"),
    });
    expect(res.status).toBe(200);
    // The confirmed page leads back to the report.
    expect((await res.json()).data).toEqual({
      message: "You are subscribed. Each message has a link to unsubscribe.",
      reportPath: `/public/report/${DEMO.reportHash}`,
    });
  }

  /** A rule on the report's cold room channel that raises an alarm above 8 °C. */
  async function coldRule() {
    const admin = browser(ctx.app);
    await signIn(admin, "admin@example.com");
    const res = await admin.json("/api/v1/alerts/rules", {
      name: "Cold room warm",
      channelKey: COLD_TEMP,
      condition: { type: "above", high: 8, scale: "C" },
      notify: { emails: [] },
    });
    expect(res.status).toBe(200);
    return admin;
  }
  const reading = (value: number, secondsAgo: number) =>
    push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value, time: NOW_S - secondsAgo }] });
  const tick = (at: Date, mailer = createMailer(outboxStore(db()), undefined, () => at)) =>
    alertTask({ db: db(), mailer, origin: "http://portal.test", webhookPrivate: "loopback" })(at);

  it("answers the same for a new address and for one already subscribed", async () => {
    await confirmed("known@example.net");
    const known = await subscribeAs("known@example.net");
    const fresh = await subscribeAs("fresh@example.net");
    expect(known.status).toBe(fresh.status);
    const answer = (await fresh.json()).data;
    expect(answer).toEqual({ message: CHECK_INBOX });
    expect((await known.json()).data).toEqual(answer);
    expect(await state("fresh@example.net")).toBe("pending");
  });

  it("names the report in the mailed confirm link, so an expired link can lead back to it", async () => {
    await subscribeAs("named@example.net");
    const text = (await outbox()).at(-1)!.text;
    expect(text).toMatch(new RegExp(`/visitors/confirm\\?token=[\\w-]+&report=${DEMO.reportHash}\\n`));
  });

  it("confirms nothing and unsubscribes nothing when a scanner opens the links", async () => {
    const b = visitor();
    await subscribeAs("scan@example.net", b);
    const token = tokenIn((await outbox()).at(-1)!.text, "confirm");
    const seen = await b.get(`/api/v1/visitor-subscriptions/confirm?token=${token}`);
    expect(seen.status).toBe(200);
    expect((await seen.json()).data).toEqual({
      reportName: "Lab Climate — Last 24 Hours",
      email: "scan@example.net",
    });
    expect(await state("scan@example.net")).toBe("pending");
    expect((await b.json("/api/v1/visitor-subscriptions/confirm", { token })).status).toBe(200);
    expect(await state("scan@example.net")).toBe("confirmed");
    // Opened or pressed again, it says the address is confirmed already and links the report.
    const reopened = await (await b.get(`/api/v1/visitor-subscriptions/confirm?token=${token}`)).json();
    expect(reopened.data).toMatchObject({
      confirmed: true,
      reportPath: expect.stringMatching(/^\/public\/report\//),
    });
    const again = await b.json("/api/v1/visitor-subscriptions/confirm", { token });
    expect(again.status).toBe(200);
    expect((await again.json()).data.message).toBe(ALREADY_CONFIRMED);
    const confirms = await rows(db(), sql`select 1 from audit_log where action = 'report.visitor.confirm'`);
    expect(confirms).toHaveLength(1);
    // An unsubscribe link (from the "already subscribed" note) shown by GET leaves it standing.
    await subscribeAs("scan@example.net", b);
    const stop = tokenIn((await outbox()).at(-1)!.text, "unsubscribe");
    expect((await b.get(`/api/v1/visitor-subscriptions/unsubscribe?token=${stop}`)).status).toBe(200);
    expect(await state("scan@example.net")).toBe("confirmed");
    const stopped = await b.json("/api/v1/visitor-subscriptions/unsubscribe", { token: stop });
    expect(stopped.status).toBe(200);
    // The unsubscribed page links back to the report.
    expect((await stopped.json()).data.reportPath).toMatch(/^\/public\/report\//);
    expect(await state("scan@example.net")).toBeUndefined();
  });

  it("refuses a bad address with the spec's message", async () => {
    const res = await subscribeAs("not an address");
    expect(res.status).toBe(400);
    expect((await res.json()).data[0].message).toBe(INVALID_EMAIL);
  });

  it("limits requests per address and per client", async () => {
    for (let i = 0; i < 3; i++) expect((await subscribeAs("flood@example.net")).status).toBe(200);
    const fourth = await subscribeAs("flood@example.net");
    expect(fourth.status).toBe(429);
    expect((await fourth.json()).data[0].message).toMatch(/^Too many attempts/);
    // One client (the same socket address in tests) walking addresses: 10 an hour in all.
    let refused = 0;
    for (let i = 0; i < 10; i++) if ((await subscribeAs(`walk${i}@example.net`)).status === 429) refused++;
    expect(refused).toBe(4); // the client spent 4 above: the address's fourth was refused after the client's count
  });

  it("refuses every address alike once the report is full", async () => {
    await confirmed("member@example.net");
    await db().execute(
      sql`insert into visitor_subscribers (report_id, email, state)
          select r.id, 'v' || g || '@example.org', 'confirmed' from reports r, generate_series(1, ${MAX_SUBSCRIBERS}) g
          where r.public_hash = ${DEMO.reportHash}`,
    );
    for (const email of ["member@example.net", "newcomer@example.net"]) {
      const res = await subscribeAs(email, visitor());
      expect(res.status).toBe(409);
      expect((await res.json()).data[0].message).toBe(REPORT_FULL);
    }
  });

  const reportId = async () =>
    (await rows<{ id: number }>(db(), sql`select id from reports where public_hash = ${DEMO.reportHash}`))[0]!
      .id;

  it("forgets the link's subscribers when the link is replaced or removed, so none is mailed the new one", async () => {
    const admin = await coldRule();
    const id = await reportId();
    await confirmed("kept-out@example.net");
    expect((await admin.json(`/api/v1/reports/${id}/public-link`, {})).status).toBe(200);
    expect(await state("kept-out@example.net")).toBeUndefined();
    expect((await subscribeAs("late@example.net")).status).toBe(404); // the old link opens nothing
  });

  it("takes no confirmation while the report's link is paused", async () => {
    const admin = await coldRule();
    const id = await reportId();
    expect((await subscribeAs("waiting@example.net")).status).toBe(200);
    const confirm = tokenIn(
      (await outbox()).filter((m) => m.to === "waiting@example.net").at(-1)!.text,
      "confirm",
    );
    expect((await admin.json(`/api/v1/reports/${id}/public-link`, { paused: true }, "PATCH")).status).toBe(
      200,
    );
    const res = await visitor().json("/api/v1/visitor-subscriptions/confirm", { token: confirm });
    expect(res.status).toBe(404);
    expect((await res.json()).data[0].message).toBe(CONFIRM_UNUSABLE);
    expect(await state("waiting@example.net")).toBe("pending");
  });

  it("gives unconfirmed addresses no place: a visitor subscribes past them, and confirming past the cap is refused", async () => {
    const id = await reportId();
    await db().execute(
      sql`insert into visitor_subscribers (report_id, email, state, confirm_by)
          select ${id}, 'filler' || g || '@nowhere.invalid', 'pending', now() + interval '2 days'
          from generate_series(1, ${MAX_SUBSCRIBERS + 50}) g`,
    );
    expect((await subscribeAs("real@example.org")).status).toBe(200);
    const confirm = tokenIn(
      (await outbox()).filter((m) => m.to === "real@example.org").at(-1)!.text,
      "confirm",
    );
    await db().execute(
      sql`insert into visitor_subscribers (report_id, email, state)
          select ${id}, 'v' || g || '@example.org', 'confirmed' from generate_series(1, ${MAX_SUBSCRIBERS}) g`,
    );
    const res = await visitor().json("/api/v1/visitor-subscriptions/confirm", { token: confirm });
    expect(res.status).toBe(409);
    expect((await res.json()).data[0].message).toBe(REPORT_FULL);
  });

  it("shows no form, refuses subscribing and queues nothing when the owner turns it off", async () => {
    await confirmed("off@example.net");
    const admin = await coldRule();
    const [report] = await rows<{ id: number }>(
      db(),
      sql`select id from reports where public_hash = ${DEMO.reportHash}`,
    );
    const path = `/api/v1/reports/${report!.id}/visitors`;
    expect((await (await admin.get(path)).json()).data).toEqual({
      visitorsMaySubscribe: true,
      subscriberCount: 1,
    });
    const off = await admin.json(path, { visitorsMaySubscribe: false }, "PATCH");
    expect((await off.json()).data).toEqual({ visitorsMaySubscribe: false, subscriberCount: 1 });
    expect((await (await visitor().get(SUBSCRIBE)).json()).data).toEqual({ open: false });
    const res = await subscribeAs("late@example.net");
    expect(res.status).toBe(403);
    expect((await res.json()).data[0].message).toBe(SUBSCRIPTIONS_OFF);
    expect((await reading(9, 60)).status).toBe(200);
    const [queued] = await rows<{ n: number }>(db(), sql`select count(*)::int as n from visitor_notices`);
    expect(queued!.n).toBe(0);
  });

  it("mails an alarm with the report's link and a one-click unsubscribe, over real SMTP", async () => {
    await confirmed("watch@example.net");
    await coldRule();
    expect((await reading(9, 60)).status).toBe(200);
    const sink = await smtpSink();
    try {
      const mailer = createMailer(outboxStore(db()), sink.url, () => TEST_NOW);
      await tick(TEST_NOW, mailer);
      const raw = sink.received.find((m) => /To: watch@example\.net/.test(m))!.replace(/\r?\n /g, " ");
      expect(raw).toMatch(/Subject: =\?UTF-8\?Q\?=5BALARM=5D_Lab_Climate/);
      expect(raw).toMatch(
        /List-Unsubscribe: <http:\/\/portal\.test\/api\/v1\/visitor-subscriptions\/one-click\/[\w-]+>/,
      );
      expect(raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
      const text = raw.replace(/=\r?\n/g, "");
      expect(text).toContain(`http://portal.test/public/report/${DEMO.reportHash}`);
      expect(text).not.toMatch(/acknowledg/i);
      const oneClick = /one-click\/([\w-]+)/.exec(raw)![1]!;
      const res = await visitor().form(`/api/v1/visitor-subscriptions/one-click/${oneClick}`, {
        "List-Unsubscribe": "One-Click",
      });
      expect(res.status).toBe(200);
      expect(await state("watch@example.net")).toBeUndefined();
    } finally {
      await sink.close();
    }
  });

  it("sends at most one message per 10 minutes, the rest as one digest at the window's end", async () => {
    await confirmed("digest@example.net");
    await coldRule();
    const mine = async () =>
      (await outbox()).filter((m) => m.to === "digest@example.net" && !/Confirm/.test(m.subject));
    await reading(9, 300);
    await tick(TEST_NOW);
    expect(await mine()).toHaveLength(1);
    await reading(5, 200); // clears
    await reading(9.5, 100); // a new alarm
    await tick(new Date(TEST_NOW.getTime() + MINUTE));
    await tick(new Date(TEST_NOW.getTime() + 9 * MINUTE));
    expect(await mine()).toHaveLength(1);
    await tick(new Date(TEST_NOW.getTime() + 10 * MINUTE));
    const sent = await mine();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.subject).toBe("[Lab Climate — Last 24 Hours] 2 alarm changes");
    expect(sent[1]!.text).toMatch(/CLEARED: [\s\S]*ALARM: /);
  });

  it("delivers each subscriber's message exactly once while two schedulers claim the same rows", async () => {
    await db().execute(
      sql`insert into visitor_subscribers (report_id, email, state)
          select r.id, 'many' || g || '@example.org', 'confirmed' from reports r, generate_series(1, 60) g
          where r.public_hash = ${DEMO.reportHash}`,
    );
    await coldRule();
    await reading(9, 60);
    const a = alertTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), undefined, () => TEST_NOW),
      origin: "http://a.test",
      webhookPrivate: "loopback",
    });
    const b = alertTask({
      db: db(),
      mailer: createMailer(outboxStore(db()), undefined, () => TEST_NOW),
      origin: "http://b.test",
      webhookPrivate: "loopback",
    });
    for (let round = 0; round < 5; round++)
      await Promise.all([a(TEST_NOW), b(TEST_NOW), a(TEST_NOW), b(TEST_NOW)]);
    const mail = await rows<{ to: string; n: number }>(
      db(),
      sql`select "to", count(*)::int as n from outbox where "to" like 'many%' group by "to"`,
    );
    expect(mail).toHaveLength(60);
    expect(mail.every((m) => m.n === 1)).toBe(true);
  });
});
