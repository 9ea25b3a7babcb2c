import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { isPrivatePath, PRIVATE_PATHS } from "../../server/http/headers.ts";
import { useTestApp } from "./helpers.ts";

/** What the app's own `app.use(path, …)` registrations of PRIVATE_PATHS matched. */
async function honoMatches(path: string) {
  const app = new Hono();
  let matched = false;
  for (const pattern of PRIVATE_PATHS)
    app.use(pattern, async (_c, next) => {
      matched = true;
      await next();
    });
  app.all("*", (c) => c.text(""));
  await app.request(`http://127.0.0.1${path}`);
  return matched;
}

describe("the gate's private paths", () => {
  it.each([
    "/api",
    "/api/",
    "/api/v1/session",
    "/apix",
    "/API/v1/session",
    "/gateway/login",
    "/user/password",
    "/auth/saml/acs/x",
    "/terms/acknowledge",
    "/subscription/accept",
    "/shipments/1",
    "/dev/mailbox",
    "/devices/data/abc",
    "/devices/data",
    "/devices/abc",
    "/order/public/ORD-1-x",
    "/order/public",
    "/order/ORD-1",
    "/quote/public/abc",
    "/quote/123",
    "/report/abc",
    "/",
    "/s/devices",
    "/api%2Fv1",
  ])("matches %s as Hono matched its patterns", async (path) => {
    expect(isPrivatePath(path)).toBe(await honoMatches(path));
  });
});

describe("the gate's refusals", () => {
  const ctx = useTestApp();

  it("keeps its NUL refusal on a private path out of caches", async () => {
    const res = await ctx.app.request("http://localhost/api/v1/session%00");
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
