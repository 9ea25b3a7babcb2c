import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox, users } from "../../server/db/schema/index.ts";
import { REMEMBER_COOKIE, SESSION_COOKIE } from "../../server/http/cookies.ts";
import { totpAt } from "../../server/services/totp.ts";
import { CHALLENGE_EXPIRED, LINK_INVALID } from "../../src/domain/auth.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

const VIEWER = "viewer@example.com";
const OLD = "demo-password-1";
const NEW = "brand-new-password";
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

describe("password reset", () => {
  const ctx = useTestApp({ seeded: true });
  const enableCodes = () =>
    ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, VIEWER));
  /** Asks for a reset link and returns its token, read from the newest mail. */
  const resetToken = async () => {
    await browser(ctx.app).form("/gateway/request-password-reset", { emailAddress: VIEWER });
    const [mail] = await ctx.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    return /token=([\w-]+)/.exec(mail!.text)![1]!;
  };
  const submit = async (b: Browser, password: string) =>
    (await b.form("/gateway/submit", { emailAddress: VIEWER, password })).json();

  it("does not sign in a person with codes on: the mailbox alone gives no session", async () => {
    await enableCodes();
    const b = browser(ctx.app);
    const res = await b.form("/gateway/reset-password", { token: await resetToken(), password: NEW });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ signedIn: false, mfaRequired: true });
    expect(res.headers.getSetCookie().filter((c) => c.startsWith(SESSION_COOKIE))).toEqual([]);
    expect((await b.get("/api/v1/session")).status).toBe(401);
    expect((await submit(b, NEW)).data).toEqual({ mfaRequired: true });
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    const code = await totpAt(SECRET, TEST_NOW);
    expect((await b.form("/gateway/verify-otp", { otp: code, remember: "0" })).status).toBe(200);
    expect((await b.get("/api/v1/session")).status).toBe(200);
  });

  it("still signs in a person without codes, who has no second factor to pass", async () => {
    const b = browser(ctx.app);
    const res = await b.form("/gateway/reset-password", { token: await resetToken(), password: NEW });
    expect((await res.json()).data).toEqual({ signedIn: true, mfaRequired: false });
    expect((await b.get("/api/v1/session")).status).toBe(200);
  });

  it("revokes every remembered browser, so an old trusted cookie no longer skips the code", async () => {
    await enableCodes();
    const trusted = browser(ctx.app);
    await submit(trusted, OLD);
    await trusted.form("/gateway/verify-otp", { otp: await totpAt(SECRET, TEST_NOW), remember: "1" });
    expect(trusted.jar.has(REMEMBER_COOKIE)).toBe(true);
    expect((await submit(trusted, OLD)).data).toEqual({ mfaRequired: false });

    await browser(ctx.app).form("/gateway/reset-password", { token: await resetToken(), password: NEW });
    trusted.jar.delete(SESSION_COOKIE);
    expect((await submit(trusted, NEW)).data).toEqual({ mfaRequired: true });
    expect(trusted.jar.has(SESSION_COOKIE)).toBe(false);
    const check = await trusted.form("/gateway/check-email", { emailAddress: VIEWER });
    expect((await check.json()).data.mfaRequired).toBe(true);
  });

  it("refuses every other outstanding reset link once one is used", async () => {
    const first = await resetToken();
    const second = await resetToken();
    expect(
      (await browser(ctx.app).form("/gateway/reset-password", { token: first, password: NEW })).status,
    ).toBe(200);
    const check = await browser(ctx.app).get(`/gateway/reset-password/check?token=${second}`);
    expect(check.status).toBe(400);
    const late = await browser(ctx.app).form("/gateway/reset-password", {
      token: second,
      password: "attacker-choice",
    });
    expect(late.status).toBe(400);
    expect((await late.json()).data).toEqual([{ field: "token", message: LINK_INVALID }]);
    await signIn(browser(ctx.app), VIEWER, NEW);
  });

  it("changes the password once when two links are used at the same time", async () => {
    const tokens = [await resetToken(), await resetToken()];
    const answers = await Promise.all(
      tokens.map((token, i) =>
        browser(ctx.app).form("/gateway/reset-password", { token, password: `${NEW}-${i}` }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = answers.findIndex((r) => r.status === 200);
    await signIn(browser(ctx.app), VIEWER, `${NEW}-${winner}`);
  });

  it("ends a half-done sign-in that used the old password", async () => {
    await enableCodes();
    const attacker = browser(ctx.app);
    expect((await submit(attacker, OLD)).data).toEqual({ mfaRequired: true });
    await browser(ctx.app).form("/gateway/reset-password", { token: await resetToken(), password: NEW });
    const res = await attacker.form("/gateway/verify-otp", {
      otp: await totpAt(SECRET, TEST_NOW),
      remember: "0",
    });
    expect((await res.json()).data).toEqual([{ field: "otp", message: CHALLENGE_EXPIRED }]);
  });

  it("lifts the lock that wrong guesses put on the address", async () => {
    for (let i = 0; i < 5; i++) await submit(browser(ctx.app), `wrong-${i}`);
    expect(
      (await browser(ctx.app).form("/gateway/submit", { emailAddress: VIEWER, password: OLD })).status,
    ).toBe(429);
    await browser(ctx.app).form("/gateway/reset-password", { token: await resetToken(), password: NEW });
    await signIn(browser(ctx.app), VIEWER, NEW);
  });
});
