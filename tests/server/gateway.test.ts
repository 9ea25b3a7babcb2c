import { eq } from "drizzle-orm";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { users } from "../../server/db/schema/index.ts";
import { strengthenPasswordHash } from "../../server/data/users.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { totpAt } from "../../server/services/totp.ts";
import { CHALLENGE_EXPIRED, WRONG_CREDENTIALS, WRONG_OTP } from "../../src/domain/auth.ts";
import { buildApp } from "../../server/app.ts";
import { hashesStarted } from "../../server/services/passwords.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const DAY = 86_400_000;

const ADMIN = "admin@example.com";
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

describe("sign-in", () => {
  const ctx = useTestApp({ seeded: true });
  const enableTotp = () =>
    ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, ADMIN));

  it("asks for a valid email address", async () => {
    for (const emailAddress of ["", "   ", "not-an-email"]) {
      const res = await browser(ctx.app).form("/gateway/check-email", { emailAddress });
      expect(res.status).toBe(400);
      expect((await res.json()).data).toEqual([{ field: "emailAddress", message: "Invalid email address." }]);
    }
    const missing = await browser(ctx.app).form("/gateway/check-email", {});
    expect((await missing.json()).data[0]).toEqual({
      field: "emailAddress",
      message: "Invalid email address.",
    });
  });

  it("tells whether a one-time code is needed, without revealing unknown addresses", async () => {
    const check = async (email: string) =>
      (await (await browser(ctx.app).form("/gateway/check-email", { emailAddress: email })).json()).data;
    expect(await check(ADMIN)).toEqual({ samlConfigName: null, mfaRequired: false });
    expect(await check("nobody@example.com")).toEqual({ samlConfigName: null, mfaRequired: false });
    await enableTotp();
    expect(await check("ADMIN@example.com")).toEqual({ samlConfigName: null, mfaRequired: true });
  });

  it("puts a wrong password's message on the password field", async () => {
    const res = await browser(ctx.app).form("/gateway/submit", {
      emailAddress: ADMIN,
      password: "wrong-password",
    });
    expect(res.status).toBe(401);
    expect((await res.json()).data).toEqual([{ field: "password", message: WRONG_CREDENTIALS }]);
  });

  it("signs in with a new session id, ending the one the browser brought (no fixation)", async () => {
    const b = browser(ctx.app);
    await signIn(b, ADMIN);
    const first = b.jar.get(SESSION_COOKIE)!;
    await signIn(b, "manager@example.com");
    const second = b.jar.get(SESSION_COOKIE)!;
    expect(second).not.toBe(first);
    const stale = browser(ctx.app);
    stale.jar.set(SESSION_COOKIE, first);
    expect((await stale.get("/api/v1/session")).status).toBe(401);
    expect((await (await b.get("/api/v1/session")).json()).data.sessionInformation.email).toBe(
      "manager@example.com",
    );
  });

  it("sets the session cookie httpOnly, SameSite=Lax, Secure off localhost", async () => {
    const local = await browser(ctx.app).form("/gateway/submit", {
      emailAddress: ADMIN,
      password: "demo-password-1",
    });
    const localCookie = local.headers.getSetCookie().find((c) => c.startsWith(SESSION_COOKIE))!;
    expect(localCookie).toMatch(/HttpOnly/);
    expect(localCookie).toMatch(/SameSite=Lax/);
    expect(localCookie).not.toMatch(/Secure/);
    const served = buildApp({
      db: ctx.database.db,
      config: testConfig({ PUBLIC_ORIGIN: "https://portal.example" }),
      now: () => TEST_NOW,
    });
    const remote = await browser(served, "https://portal.example").form("/gateway/submit", {
      emailAddress: ADMIN,
      password: "demo-password-1",
    });
    expect(remote.headers.getSetCookie().find((c) => c.startsWith(SESSION_COOKIE))).toMatch(/Secure/);
  });

  it("needs the one-time code after the password, and each code works once", async () => {
    await enableTotp();
    const b = browser(ctx.app);
    const res = await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    expect((await res.json()).data).toEqual({ mfaRequired: true });
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    const wrong = await b.form("/gateway/verify-otp", { otp: "000000", remember: "0" });
    expect((await wrong.json()).data).toEqual([{ field: "otp", message: WRONG_OTP }]);
    const code = await totpAt(SECRET, TEST_NOW);
    expect((await b.form("/gateway/verify-otp", { otp: code, remember: "0" })).status).toBe(200);
    expect((await b.get("/api/v1/session")).status).toBe(200);

    const again = browser(ctx.app);
    await again.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    const replay = await again.form("/gateway/verify-otp", { otp: code, remember: "0" });
    expect(replay.status).toBe(401);
  });

  it("refuses a code without a pending password step", async () => {
    const res = await browser(ctx.app).form("/gateway/verify-otp", { otp: "123456" });
    expect((await res.json()).data).toEqual([{ field: "otp", message: CHALLENGE_EXPIRED }]);
  });

  it("skips the code on a remembered browser until the memory is revoked", async () => {
    await enableTotp();
    const b = browser(ctx.app);
    await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    await b.form("/gateway/verify-otp", { otp: await totpAt(SECRET, TEST_NOW), remember: "1" });
    expect(b.jar.has("portal_trusted")).toBe(true);
    expect(
      (await (await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" })).json())
        .data,
    ).toEqual({ mfaRequired: false });
    expect(
      (await (await b.form("/gateway/check-email", { emailAddress: ADMIN })).json()).data.mfaRequired,
    ).toBe(false);
    expect((await b.delete("/api/v1/account/mfa/remembered-devices")).status).toBe(200);
    expect(
      (await (await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" })).json())
        .data,
    ).toEqual({ mfaRequired: true });
  });

  it("asks for the code again once the remembered browser's 30 days are over", async () => {
    await enableTotp();
    const b = browser(ctx.app);
    await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    await b.form("/gateway/verify-otp", { otp: await totpAt(SECRET, TEST_NOW), remember: "1" });
    const at = (days: number) => {
      const later = browser(
        buildApp({
          db: ctx.database.db,
          config: testConfig(),
          now: () => new Date(TEST_NOW.getTime() + days * DAY),
        }),
      );
      for (const [k, v] of b.jar) later.jar.set(k, v);
      return later;
    };
    const submit = async (who: ReturnType<typeof browser>) =>
      (await (await who.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" })).json())
        .data;
    expect(await submit(at(29))).toEqual({ mfaRequired: false });
    expect(await submit(at(31))).toEqual({ mfaRequired: true });
  });

  it("stops accepting codes after five wrong ones, and says for how long", async () => {
    await enableTotp();
    const b = browser(ctx.app);
    await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    for (let i = 0; i < 5; i++) await b.form("/gateway/verify-otp", { otp: `00000${i}` });
    const res = await b.form("/gateway/verify-otp", { otp: await totpAt(SECRET, TEST_NOW) });
    expect(res.status).toBe(429);
    expect((await res.json()).data[0]).toEqual({
      field: "otp",
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/),
    });
    expect(b.jar.has("portal_sid")).toBe(false);
  });

  it("locks sign-in for the address after five wrong passwords, and says for how long", async () => {
    const b = browser(ctx.app);
    for (let i = 0; i < 5; i++)
      await b.form("/gateway/submit", { emailAddress: ADMIN, password: `wrong-${i}` });
    const res = await b.form("/gateway/submit", { emailAddress: ADMIN, password: "demo-password-1" });
    expect(res.status).toBe(429);
    expect((await res.json()).data[0]).toEqual({
      field: "password",
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/),
    });
  });

  it("hashes once for an unknown address as for a known one, so timing does not tell them apart", async () => {
    // Counted, not timed (a clock's reading moves with the machine): the unknown address's
    // dummy hash is the same work at the same cost as the known address's check.
    let hours = 0;
    // Every reading of the clock is an hour later, so no lockout interferes.
    const app = buildApp({
      db: ctx.database.db,
      config: testConfig(),
      now: () => new Date(TEST_NOW.getTime() + hours++ * 3_600_000),
    });
    const hashesFor = async (emailAddress: string) => {
      const before = hashesStarted();
      const res = await browser(app).form("/gateway/submit", { emailAddress, password: "wrong-password" });
      expect(res.status).toBe(401);
      return hashesStarted() - before;
    };
    for (let i = 0; i < 3; i++) {
      expect(await hashesFor(`nobody-${i}@example.com`)).toBe(1);
      expect(await hashesFor(ADMIN)).toBe(1);
    }
  });

  it("hashes a password stored below the product's cost again at sign-in, with the same password", async () => {
    const stored = async () =>
      (await ctx.database.db.select().from(users).where(eq(users.email, ADMIN)))[0]!.passwordHash!;
    expect((await stored()).split("$")[1]).toBe("1024");
    vi.stubEnv("VITEST_SCRYPT_N", "32768");
    onTestFinished(() => void vi.unstubAllEnvs());
    await signIn(browser(ctx.app), ADMIN);
    const stronger = await stored();
    expect(stronger.split("$")[1]).toBe("32768");
    await signIn(browser(ctx.app), ADMIN);
    expect(await stored()).toBe(stronger);
  });

  it("keeps a password set in between when it strengthens the old one's hash", async () => {
    const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, ADMIN));
    await strengthenPasswordHash(ctx.database.db, admin!.id, "scrypt$1024$8$1$other$hash", "stronger");
    const [after] = await ctx.database.db.select().from(users).where(eq(users.email, ADMIN));
    expect(after!.passwordHash).toBe(admin!.passwordHash);
  });

  it("refuses sign-in posted from another site", async () => {
    const res = await browser(ctx.app, "http://localhost").form("/gateway/submit", {
      emailAddress: ADMIN,
      password: "demo-password-1",
    });
    expect(res.status).toBe(200);
    const evil = await ctx.app.request("http://localhost/gateway/submit", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ emailAddress: ADMIN, password: "demo-password-1" }).toString(),
    });
    expect(evil.status).toBe(403);
  });

  it("signs out, ending the session on the server", async () => {
    const b = browser(ctx.app);
    await signIn(b, ADMIN);
    const token = b.jar.get(SESSION_COOKIE)!;
    expect((await b.form("/gateway/logout", {})).status).toBe(200);
    const replay = browser(ctx.app);
    replay.jar.set(SESSION_COOKIE, token);
    expect((await replay.get("/api/v1/session")).status).toBe(401);
  });
});
