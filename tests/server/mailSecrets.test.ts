import { desc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { outbox } from "../../server/db/schema/index.ts";
import { LINK_REMOVED, outboxStore, purgeMail } from "../../server/data/outbox.ts";
import { createMailer } from "../../server/services/mail.ts";
import { browser } from "./client.ts";
import { smtpSink } from "./smtpSink.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

/*
 * Issue 32, item 4: the outbox kept every reset, invitation and registration link forever, so
 * anyone reading a backup could use them. A link now leaves the outbox when its message is
 * sent or when it expires, and mail goes after the retention.
 */

const HOUR = 3_600_000;
const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);
const tokenIn = (text: string) => /token=([\w-]+)/.exec(text)?.[1];

describe("one-time links in the outbox", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const lastMail = async () => (await db().select().from(outbox).orderBy(desc(outbox.id)).limit(1))[0]!;
  const signUp = (app = ctx.app) =>
    browser(app).form("/user/new/sign-up", { emailAddress: "kept@example.com" });
  const validate = (token: string) =>
    browser(ctx.app).form("/user/validate", {
      token,
      firstName: "K",
      lastName: "P",
      password: "a-good-password",
    });

  it("cuts the link out of a message the moment SMTP has taken it", async () => {
    const sink = await smtpSink();
    const { received } = sink;
    const mailer = createMailer(outboxStore(db()), sink.url, () => TEST_NOW);
    await signUp(buildApp({ db: db(), config: testConfig(), now: () => TEST_NOW, mailer }));
    sink.close();
    const sent = tokenIn(received[0]!.replace(/=\r?\n/g, "").replaceAll("=3D", "="));
    expect(sent).toMatch(/^[\w-]{20,}$/);
    const kept = await lastMail();
    expect(kept.sentAt).not.toBeNull();
    expect(kept.text).not.toContain(sent);
    expect(kept.text).toContain(`/user/validate?token=${LINK_REMOVED}`);
    // The person's own copy still works.
    expect((await validate(sent!)).status).toBe(200);
  });

  it("keeps an unsent message's link (the demo mailbox) while it works, and cuts it out once it expired", async () => {
    await signUp();
    const token = tokenIn((await lastMail()).text)!;
    expect(await purgeMail(db(), at(23 * HOUR), 30)).toEqual({ linksRemoved: 0, deleted: 0 });
    expect(tokenIn((await lastMail()).text)).toBe(token);
    expect(await purgeMail(db(), at(25 * HOUR), 30)).toEqual({ linksRemoved: 1, deleted: 0 });
    const kept = await lastMail();
    expect(kept.text).not.toContain(token);
    expect(kept.subject).toBe("Validate your Device Portal account");
  });

  it("cuts a reset link out after its hour and deletes every message after the retention", async () => {
    await browser(ctx.app).form("/gateway/request-password-reset", { emailAddress: "viewer@example.com" });
    const token = tokenIn((await lastMail()).text)!;
    await purgeMail(db(), at(HOUR + 1000), 30);
    expect((await lastMail()).text).not.toContain(token);
    expect(await purgeMail(db(), at(29 * 24 * HOUR), 30)).toEqual({ linksRemoved: 0, deleted: 0 });
    expect(await purgeMail(db(), at(30 * 24 * HOUR + 1000), 30)).toEqual({ linksRemoved: 0, deleted: 1 });
    expect(await db().select().from(outbox)).toEqual([]);
  });

  it("gives no working link to anyone who reads the outbox after the links expired", async () => {
    await signUp();
    await browser(ctx.app).form("/gateway/request-password-reset", { emailAddress: "viewer@example.com" });
    await purgeMail(db(), at(25 * HOUR), 30);
    const mail = await db().select().from(outbox);
    expect(mail).toHaveLength(2);
    for (const m of mail) {
      expect(tokenIn(m.text)).toBeUndefined();
      expect(m.text).toContain(`token=${LINK_REMOVED}`);
    }
  });
});
