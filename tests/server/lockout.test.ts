import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { users } from "../../server/db/schema/index.ts";
import { hashesStarted } from "../../server/services/passwords.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { totpAt } from "../../server/services/totp.ts";
import { browser } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const ADMIN = "admin@example.com";
const PASSWORD = "demo-password-1";
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const MINUTE = 60_000;
const TOO_MANY = /^Too many attempts\. Try again in \d+ minutes?\.$/;

describe("sign-in lockout", () => {
  const ctx = useTestApp({ seeded: true });
  /** The app as it answers `minutes` after TEST_NOW, on the same database. */
  const at = (minutes: number) =>
    buildApp({
      db: ctx.database.db,
      config: testConfig(),
      now: () => new Date(TEST_NOW.getTime() + minutes * MINUTE),
    });
  const submit = (app: ReturnType<typeof at>, password: string) =>
    browser(app).form("/gateway/submit", { emailAddress: ADMIN, password });

  it("lets none of 40 simultaneous guesses in once five have failed, hashing at most five", async () => {
    const before = hashesStarted();
    const guesses = [...Array.from({ length: 39 }, (_, i) => `wrong-guess-${i}`), PASSWORD];
    const answers = await Promise.all(guesses.map((p) => submit(ctx.app, p)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toEqual([]);
    expect(answers.some((r) => r.headers.getSetCookie().some((c) => c.startsWith(SESSION_COOKIE)))).toBe(
      false,
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    expect(hashesStarted() - before).toBeLessThanOrEqual(5);
    const last = answers[answers.length - 1]!;
    expect(last.status).toBe(429);
    expect((await last.json()).data[0]).toEqual({
      field: "password",
      message: expect.stringMatching(TOO_MANY),
    });
  });

  it("keeps the lock for a full sliding 15 minutes, across any fixed boundary, and says how long", async () => {
    // Five failures at 12:14; a fixed 15-minute bucket would have reopened at 12:15.
    for (let i = 0; i < 5; i++) expect((await submit(at(14), `wrong-${i}`)).status).toBe(401);
    const locked = await submit(at(16), PASSWORD);
    expect(locked.status).toBe(429);
    expect((await locked.json()).data[0].message).toBe("Too many attempts. Try again in 13 minutes.");
    const almost = await submit(at(28.5), PASSWORD);
    expect((await almost.json()).data[0].message).toBe("Too many attempts. Try again in 1 minute.");
    expect((await submit(at(29.1), PASSWORD)).status).toBe(200);
  });

  it("does not count a correct password as a failure, nor a refused attempt as one", async () => {
    for (let i = 0; i < 4; i++) expect((await submit(ctx.app, `wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await submit(ctx.app, PASSWORD)).status).toBe(200);
    expect((await submit(ctx.app, "wrong-4")).status).toBe(401);
    expect((await submit(ctx.app, PASSWORD)).status).toBe(429);
    // Refusals during the lock do not extend it: it ends 15 minutes after the fifth failure.
    for (let i = 0; i < 5; i++) expect((await submit(at(10), PASSWORD)).status).toBe(429);
    expect((await submit(at(15.1), PASSWORD)).status).toBe(200);
  });

  it("lets none of 40 simultaneous one-time codes in once five have failed", async () => {
    await ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, ADMIN));
    const b = browser(ctx.app);
    expect(
      (await (await b.form("/gateway/submit", { emailAddress: ADMIN, password: PASSWORD })).json()).data,
    ).toEqual({
      mfaRequired: true,
    });
    const right = await totpAt(SECRET, TEST_NOW);
    const codes = [
      ...Array.from({ length: 39 }, (_, i) => String(100000 + i)).filter((c) => c !== right),
      right,
    ];
    const answers = await Promise.all(
      codes.map((otp) => b.form("/gateway/verify-otp", { otp, remember: "0" })),
    );
    expect(answers.filter((r) => r.status === 200)).toEqual([]);
    expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(codes.length - 5);
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
  });
});
