import { desc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { rows } from "../../server/db/client.ts";
import { outbox } from "../../server/db/schema/index.ts";
import { issueToken } from "../../server/data/tokens.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { createMailer } from "../../server/services/mail.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";
import { browser, signIn } from "./client.ts";
import { smtpSink } from "./smtpSink.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const linkIn = (text: string) =>
  /(\/(?:user\/validate|gateway\/reset-password)\?token=[\w-]+)/.exec(text)![1]!;
const tokenOf = (link: string) => new URL(link, "http://x").searchParams.get("token")!;

describe("registration and password reset", () => {
  const ctx = useTestApp({ seeded: true });
  const lastMail = async () =>
    (await ctx.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1))[0]!;

  it("says an existing address is already registered", async () => {
    const res = await browser(ctx.app).form("/user/new/sign-up", {
      emailAddress: "viewer@example.com",
      referrer: "ord-5003",
    });
    expect((await res.json()).data).toEqual({ userExists: 1 });
  });

  it("emails a single-use link that validates the account and signs the person in", async () => {
    const b = browser(ctx.app);
    const res = await b.form("/user/new/sign-up", {
      emailAddress: "New.Person@Example.com",
      referrer: "quo-1001",
    });
    expect((await res.json()).data).toEqual({ userExists: 0 });
    const mail = await lastMail();
    expect(mail.to).toBe("new.person@example.com");
    const link = linkIn(mail.text);
    const check = await b.get(`/user/validate/check?token=${tokenOf(link)}`);
    expect((await check.json()).data).toEqual({ email: "new.person@example.com" });
    const fields = {
      token: tokenOf(link),
      firstName: "New",
      lastName: "Person",
      password: "a-good-password",
    };
    expect((await b.form("/user/validate", { ...fields, password: "short" })).status).toBe(400);
    expect((await b.form("/user/validate", fields)).status).toBe(200);
    const session = (await (await b.get("/api/v1/session")).json()).data;
    expect(session.termsAccepted).toBe(false);
    expect(session.sessionInformation.activeSubscription.role.displayName).toBe("Administrator");
    const again = await browser(ctx.app).form("/user/validate", fields);
    expect((await again.json()).data).toEqual([{ field: "token", message: LINK_INVALID }]);
    await signIn(browser(ctx.app), "new.person@example.com", "a-good-password");
  });

  it("gives the contact of an order access to that order's subscription when they register from it", async () => {
    const b = browser(ctx.app);
    await b.form("/user/new/sign-up", { emailAddress: "dana@acme.example.com", referrer: "ord-5003" });
    const token = tokenOf(linkIn((await lastMail()).text));
    await b.form("/user/validate", {
      token,
      firstName: "Dana",
      lastName: "Whitfield",
      password: "dana-password-1",
    });
    const info = (await (await b.get("/api/v1/session")).json()).data.sessionInformation;
    expect(info.activeSubscription).toMatchObject({ name: "Acme Labs", role: { displayName: "Billing" } });
  });

  it("gives the contact of an order a subscription of their own when the order's plan has no user place left", async () => {
    const members = sql`(select count(*) from user_assignments u where u.subscription_id = subscriptions.id)`;
    await ctx.database.db.execute(
      sql`update subscriptions set limits = limits || jsonb_build_object('users', ${members}) where name = 'Acme Labs'`,
    );
    const b = browser(ctx.app);
    await b.form("/user/new/sign-up", { emailAddress: "dana@acme.example.com", referrer: "ord-5003" });
    const token = tokenOf(linkIn((await lastMail()).text));
    const fields = { token, firstName: "Dana", lastName: "Whitfield", password: "dana-password-1" };
    expect((await b.form("/user/validate", fields)).status).toBe(200);
    const info = (await (await b.get("/api/v1/session")).json()).data.sessionInformation;
    expect(info.activeSubscription).toMatchObject({
      name: "dana@acme.example.com account",
      role: { displayName: "Administrator" },
    });
  });

  it("slows down repeated registration requests for one address, saying for how long", async () => {
    const b = browser(ctx.app);
    for (let i = 0; i < 5; i++)
      expect((await b.form("/user/new/sign-up", { emailAddress: "busy@example.com" })).status).toBe(200);
    const res = await b.form("/user/new/sign-up", { emailAddress: "busy@example.com" });
    expect(res.status).toBe(429);
    expect((await res.json()).data[0]).toEqual({
      field: "emailAddress",
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/),
    });
  });

  it("refuses an unknown referrer and a bad address beside the field", async () => {
    const res = await browser(ctx.app).form("/user/new/sign-up", { emailAddress: "x", referrer: "inv-1" });
    expect((await res.json()).data).toEqual([
      { field: "emailAddress", message: "Invalid email address." },
      { field: "referrer", message: "Unknown referrer." },
    ]);
  });

  it("resets a forgotten password by a one-hour link and ends the old sessions", async () => {
    const old = browser(ctx.app);
    await signIn(old, "viewer@example.com");
    const anyone = browser(ctx.app);
    const res = await anyone.form("/gateway/request-password-reset", { emailAddress: "viewer@example.com" });
    expect((await res.json()).data.message).toMatch(/If an account uses that address/);
    const token = tokenOf(linkIn((await lastMail()).text));
    expect(
      (await anyone.form("/gateway/reset-password", { token, password: "brand-new-password" })).status,
    ).toBe(200);
    expect((await old.get("/api/v1/session")).status).toBe(401);
    expect((await anyone.get("/api/v1/session")).status).toBe(200);
    await signIn(browser(ctx.app), "viewer@example.com", "brand-new-password");
    const reuse = await browser(ctx.app).form("/gateway/reset-password", {
      token,
      password: "another-password",
    });
    expect((await reuse.json()).data).toEqual([{ field: "token", message: LINK_INVALID }]);
  });

  it("refuses an expired reset link", async () => {
    await browser(ctx.app).form("/gateway/request-password-reset", { emailAddress: "viewer@example.com" });
    const token = tokenOf(linkIn((await lastMail()).text));
    const later = buildApp({
      db: ctx.database.db,
      config: testConfig(),
      now: () => new Date(TEST_NOW.getTime() + 2 * 3_600_000),
    });
    const res = await browser(later).form("/gateway/reset-password", {
      token,
      password: "brand-new-password",
    });
    expect(res.status).toBe(400);
  });

  it("answers the same for unknown addresses and sends them nothing", async () => {
    const res = await browser(ctx.app).form("/gateway/request-password-reset", {
      emailAddress: "ghost@example.com",
    });
    expect(res.status).toBe(200);
    expect(await ctx.database.db.select().from(outbox)).toEqual([]);
  });

  it("delivers the registration mail through a real SMTP server", async () => {
    const sink = await smtpSink();
    const { received } = sink;
    const mailer = createMailer(outboxStore(ctx.database.db), sink.url, () => TEST_NOW);
    const app = buildApp({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW, mailer });
    await browser(app).form("/user/new/sign-up", { emailAddress: "smtp.person@example.com" });
    sink.close();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/To: smtp\.person@example\.com/);
    expect(received[0]).toMatch(/Subject: Validate your Device Portal account/);
    expect(received[0]!.replace(/=\r?\n/g, "")).toMatch(/\/user\/validate\?token=/);
    expect((await lastMail()).sentAt).not.toBeNull();
  });
  it("creates one account when three links for one address are used at once; the others are invalid", async () => {
    const email = "race@example.com";
    const b = browser(ctx.app);
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      await b.form("/user/new/sign-up", { emailAddress: email });
      tokens.push(tokenOf(linkIn((await lastMail()).text)));
    }
    expect(new Set(tokens).size).toBe(3);
    const results = await Promise.all(
      tokens.map(async (token, i) => {
        const res = await browser(ctx.app).form("/user/validate", {
          token,
          firstName: `Racer${i}`,
          lastName: "Person",
          password: "a-good-password",
        });
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((x) => x.status === 400))
      expect(r.body.data).toEqual([{ field: "token", message: LINK_INVALID }]);
    const accounts = await rows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from users where email = ${email}`,
    );
    expect(accounts[0]!.n).toBe(1);
    const owned = await rows<{ name: string; members: number }>(
      ctx.database.db,
      sql`select s.name, (select count(*)::int from user_assignments a where a.subscription_id = s.id) as members
          from subscriptions s where s.name like ${`${email}%`}`,
    );
    expect(owned).toEqual([{ name: `${email} account`, members: 1 }]);
  });

  it("refuses a referrer whose record number no database id can hold", async () => {
    const res = await browser(ctx.app).form("/user/new/sign-up", {
      emailAddress: "big@example.com",
      referrer: "ord-2147483648",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).data).toEqual([{ field: "referrer", message: "Unknown referrer." }]);
  });
  it("gives an own subscription to a link whose stored referrer names no possible record", async () => {
    const token = await issueToken(
      ctx.database.db,
      { purpose: "register", email: "old.link@example.com", referrer: "ord-99999999999", hours: 24 },
      TEST_NOW,
    );
    const b = browser(ctx.app);
    const res = await b.form("/user/validate", {
      token,
      firstName: "Old",
      lastName: "Link",
      password: "a-good-password",
    });
    expect(res.status).toBe(200);
    const info = (await (await b.get("/api/v1/session")).json()).data.sessionInformation;
    expect(info.activeSubscription.name).toBe("old.link@example.com account");
  });
});
