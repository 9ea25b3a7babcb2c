import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const DAY = 86_400_000;
const ADMIN = "admin@example.com";
const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

describe("account sessions", () => {
  const ctx = useTestApp({ seeded: true });
  const appAt = (ms: number) =>
    buildApp({ db: ctx.database.db, config: testConfig(), now: () => new Date(TEST_NOW.getTime() + ms) });
  /** The same cookies, asking the app as it answers at another time. */
  const later = (b: Browser, ms: number) => {
    const moved = browser(appAt(ms));
    for (const [k, v] of b.jar) moved.jar.set(k, v);
    return moved;
  };
  /** Signs in sending a User-Agent header, as a real browser does. */
  const signInAs = async (userAgent: string, app = ctx.app) => {
    const res = await app.request("http://localhost/gateway/submit", {
      method: "POST",
      headers: {
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": userAgent,
      },
      body: new URLSearchParams({ emailAddress: ADMIN, password: "demo-password-1" }).toString(),
    });
    const b = browser(app);
    const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    b.jar.set(SESSION_COOKIE, line.split(";")[0]!.slice(SESSION_COOKIE.length + 1));
    return b;
  };

  it("ends a session 30 days after sign-in even when it is used every day", async () => {
    const b = browser(ctx.app);
    await signIn(b, ADMIN);
    for (let day = 1; day < 30; day++)
      expect((await later(b, day * DAY).get("/api/v1/session")).status).toBe(200);
    expect((await later(b, 30 * DAY + 60_000).get("/api/v1/session")).status).toBe(401);
  });

  it("still ends an unused session after seven days", async () => {
    const b = browser(ctx.app);
    await signIn(b, ADMIN);
    expect((await later(b, 6 * DAY).get("/api/v1/session")).status).toBe(200);
    expect((await later(b, 13 * DAY + 60_000).get("/api/v1/session")).status).toBe(401);
  });

  it("keeps at most ten live sessions per person, ending the oldest first", async () => {
    const browsers: Browser[] = [];
    for (let i = 0; i < 12; i++) {
      const b = browser(appAt(i * 60_000));
      await signIn(b, ADMIN);
      browsers.push(b);
    }
    const statuses = await Promise.all(
      browsers.map(async (b) => (await later(b, DAY).get("/api/v1/session")).status),
    );
    expect(statuses).toEqual([401, 401, ...Array<number>(10).fill(200)]);
    const other = browser(ctx.app);
    await signIn(other, "viewer@example.com");
    expect((await other.get("/api/v1/session")).status).toBe(200);
  });

  it("lists the person's own sessions with browser, times and which one is this", async () => {
    const phone = await signInAs(SAFARI_IPHONE);
    const desk = await signInAs(CHROME_LINUX, appAt(3_600_000));
    await signIn(browser(ctx.app), "viewer@example.com");
    const res = await later(desk, 2 * 3_600_000).get("/api/v1/account/sessions");
    expect(res.status).toBe(200);
    const at = (ms: number) => Math.floor((TEST_NOW.getTime() + ms) / 1000);
    expect((await res.json()).data).toEqual([
      { browser: "Chrome on Linux", createdAt: at(3_600_000), lastSeenAt: at(3_600_000), current: true },
      { browser: "Safari on iPhone", createdAt: at(0), lastSeenAt: at(0), current: false },
    ]);
    expect((await phone.get("/api/v1/account/sessions")).status).toBe(200);
  });

  it("signs out everywhere else, keeping this browser signed in", async () => {
    const here = await signInAs(CHROME_LINUX);
    const others = [await signInAs(SAFARI_IPHONE), await signInAs("curl/8.0")];
    const viewer = browser(ctx.app);
    await signIn(viewer, "viewer@example.com");
    const res = await here.delete("/api/v1/account/sessions/others");
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ ended: 2 });
    for (const b of others) expect((await b.get("/api/v1/session")).status).toBe(401);
    expect((await here.get("/api/v1/session")).status).toBe(200);
    expect((await viewer.get("/api/v1/session")).status).toBe(200);
    const list = (await (await here.get("/api/v1/account/sessions")).json()).data;
    expect(list).toHaveLength(1);
  });

  it("needs a session to list or end sessions", async () => {
    expect((await browser(ctx.app).get("/api/v1/account/sessions")).status).toBe(401);
    expect((await browser(ctx.app).delete("/api/v1/account/sessions/others")).status).toBe(401);
  });
});
