import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../server/db/schema/index.ts";
import { sql } from "drizzle-orm";
import { rows } from "../../server/db/client.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { HASH_ALREADY } from "../../server/services/hashQueue.ts";
import {
  HASH_BUSY,
  hashesStarted,
  hashQueueFull,
  verifyPassword,
  withHashSlot,
} from "../../server/services/passwords.ts";
import { browser, signIn } from "./client.ts";
import { atProductCost, useTestApp } from "./helpers.ts";

const MANAGER = "manager@example.com";
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const TOO_MANY = /^Too many attempts\. Try again in \d+ minutes?\.$/;

describe("password checks under load", () => {
  const ctx = useTestApp({ seeded: true });
  const signedInWithCodes = async () => {
    const b = browser(ctx.app);
    await signIn(b, MANAGER);
    await ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, MANAGER));
    return b;
  };
  const timed = async <T>(task: () => Promise<T>) => {
    const start = performance.now();
    const value = await task();
    return { value, ms: performance.now() - start };
  };

  it("answers 200 parallel code-disabling guesses from one session quickly, and hashes at most five", async () => {
    const thief = await signedInWithCodes();
    const before = hashesStarted();
    const { value: answers, ms } = await timed(() =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          thief.json("/api/v1/account/mfa/disable", { password: `guess-number-${i}` }),
        ),
      ),
    );
    expect(hashesStarted() - before).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.status === 200)).toEqual([]);
    expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(195);
    // How long it took is a figure, not a check (it moves with the machine): printed.
    console.log(`200 parallel guesses answered in ${ms.toFixed(0)} ms.`);
    const messages = new Set(await Promise.all(answers.map(async (r) => (await r.json()).data[0].message)));
    for (const m of messages) expect(m).toMatch(/^(Too many attempts|Incorrect password|A password check)/);
    // Guesses one after another count against the person's limit of five wrong passwords.
    const wrong = await thief.json("/api/v1/account/mfa/disable", { password: "one-more-guess" });
    const checked = answers.filter((r) => r.status === 400).length + (wrong.status === 400 ? 1 : 0);
    for (let i = checked; i < 5; i++)
      await thief.json("/api/v1/account/mfa/disable", { password: `sequential-guess-${i}` });
    const right = await thief.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
    expect(right.status).toBe(429);
    expect((await right.json()).data[0]).toEqual({
      field: "password",
      message: expect.stringMatching(TOO_MANY),
    });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, MANAGER));
    expect(row!.totpSecret).toBe(SECRET);
  });

  it("keys the one-check-per-session lock on the session that signs in, whatever other session cookies come first", async () => {
    const thief = await signedInWithCodes();
    const token = thief.jar.get(SESSION_COOKIE)!;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ctx.app.request("http://localhost/api/v1/account/mfa/disable", {
          method: "POST",
          headers: {
            origin: "http://localhost",
            "content-type": "application/json",
            // A junk first cookie, another each time: it must not give each request its own lock.
            cookie: `${SESSION_COOKIE}=a.${i}; ${SESSION_COOKIE}=${token}`,
          },
          body: JSON.stringify({ password: `guess-number-${i}` }),
        }),
      ),
    );
    const messages = await Promise.all(answers.map(async (r) => (await r.json()).data[0].message));
    expect(messages.filter((m) => m === HASH_ALREADY).length).toBeGreaterThanOrEqual(39);
  });

  it("does not starve another person's sign-in while one session floods the password check", async () => {
    await atProductCost(ctx.database.db, [MANAGER, "viewer@example.com", "billing@example.com"]);
    const thief = await signedInWithCodes();
    const alone = await timed(() => signIn(browser(ctx.app), "viewer@example.com"));
    const before = hashesStarted();
    const flood = Array.from({ length: 200 }, (_, i) =>
      thief.json("/api/v1/account/mfa/disable", { password: `guess-number-${i}` }),
    );
    const during = await timed(() => signIn(browser(ctx.app), "billing@example.com"));
    await Promise.all(flood);
    expect(during.value.status).toBe(200);
    // The flood took at most one hashing place at a time (five in all), so the sign-in's hash
    // was never queued behind 200 of them; the times are printed, not checked.
    expect(hashesStarted() - before).toBeLessThanOrEqual(6);
    console.log(`Sign-in alone ${alone.ms.toFixed(0)} ms, during the flood ${during.ms.toFixed(0)} ms.`);
  });

  it("checks no password when the one-time code is already off", async () => {
    const b = browser(ctx.app);
    await signIn(b, MANAGER);
    const before = hashesStarted();
    const res = await b.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
    expect(res.status).toBe(409);
    expect((await res.json()).data[0].message).toBe("The one-time passcode is already off.");
    expect(hashesStarted()).toBe(before);
  });

  it("counts every password check of a person, right ones too: the eleventh in 15 minutes is refused unhashed", async () => {
    const b = await signedInWithCodes();
    const setCodes = () =>
      ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, MANAGER));
    for (let i = 0; i < 10; i++) {
      const res = await b.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
      expect(res.status, `check ${i + 1}`).toBe(200);
      await setCodes();
    }
    const before = hashesStarted();
    const res = await b.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
    expect(res.status).toBe(429);
    expect((await res.json()).data[0]).toEqual({
      field: "password",
      message: expect.stringMatching(TOO_MANY),
    });
    expect(hashesStarted()).toBe(before);
  });

  it("still turns codes off with the right password", async () => {
    const b = await signedInWithCodes();
    const res = await b.json("/api/v1/account/mfa/disable", { password: "demo-password-1" });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ enabled: false });
  });

  it("refuses with 429 beyond one running check per owner and beyond the queue's length", async () => {
    const stored = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const same = await Promise.allSettled([
      verifyPassword("a", stored, { owner: "user:1" }),
      verifyPassword("b", stored, { owner: "user:1" }),
    ]);
    expect(same.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect(String((same[1] as PromiseRejectedResult).reason.message)).toMatch(/^A password check/);
    const crowd = await Promise.allSettled(
      Array.from({ length: 40 }, () => withHashSlot(null, () => new Promise((r) => setTimeout(r, 50)))),
    );
    const refused = crowd.filter((r) => r.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    expect(String((refused[0] as PromiseRejectedResult).reason.message)).toBe(
      "The server is busy checking passwords. Try again in a moment.",
    );
  });

  it("turns a sign-in away while every hash place is taken, counting nothing against its address", async () => {
    let done!: () => void;
    const hold = new Promise<void>((resolve) => (done = resolve));
    const held: Promise<unknown>[] = [];
    while (!hashQueueFull()) held.push(withHashSlot(null, () => hold));
    const res = await browser(ctx.app).form("/gateway/submit", {
      emailAddress: "admin@example.com",
      password: "demo-password-1",
    });
    done();
    await Promise.all(held);
    expect(res.status).toBe(429);
    expect((await res.json()).data).toEqual([{ field: "password", message: HASH_BUSY }]);
    const counted = await rows(ctx.database.db, sql`select key from rate_limits`);
    expect(counted).toEqual([]);
  });
});
