import { describe, expect, it } from "vitest";
import { browser, signIn, type Browser } from "./client.ts";
import { useTestApp } from "./helpers.ts";

const TERMS_REQUIRED = "Accept the Terms of Service to continue.";
const NOT_SIGNED_IN = "You are not signed in.";
/** The calls a person needs to reach and accept the terms (and to leave). */
const BEFORE_TERMS = [
  "GET /api/v1/session",
  "GET /api/v1/session/terms-accepted",
  "POST /api/v1/session/terms-accepted",
];

const call = (b: Browser, method: string, path: string) =>
  method === "GET" ? b.get(path) : b.json(path, {}, method);

describe("terms of service on the server", () => {
  const ctx = useTestApp({ seeded: true });
  const newhire = async () => {
    const b = browser(ctx.app);
    await signIn(b, "newhire@example.com");
    return b;
  };
  /** Routes that answer an anonymous caller "not signed in": the signed-in ones. */
  const signedInRoutes = async () => {
    const found: string[] = [];
    const seen = new Set<string>();
    for (const { method, path } of ctx.app.routes) {
      const route = `${method} ${path}`;
      if (method === "ALL" || path.includes("*") || path.includes(":") || seen.has(route)) continue;
      seen.add(route);
      const res = await call(browser(ctx.app), method, path);
      const body = res.status === 401 ? await res.json() : null;
      if (body?.data?.[0]?.message === NOT_SIGNED_IN) found.push(route);
    }
    return found;
  };

  it("refuses every signed-in data call with a 403 until the terms are accepted", async () => {
    const routes = (await signedInRoutes()).filter((r) => !BEFORE_TERMS.includes(r));
    expect(routes).toEqual(
      expect.arrayContaining(["GET /api/v1/session/subscription/stats", "GET /api/v1/account-messages"]),
    );
    const b = await newhire();
    const answers: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(" ") as [string, string];
      const res = await call(b, method, path);
      const message = (await res.json()).data?.[0]?.message;
      answers.push(`${route} ${res.status} ${message}`);
    }
    expect(answers).toEqual(routes.map((r) => `${r} 403 ${TERMS_REQUIRED}`));
  });

  it("keeps the session, terms and sign-out calls working before acceptance", async () => {
    const b = await newhire();
    const session = await b.get("/api/v1/session");
    expect(session.status).toBe(200);
    expect((await session.json()).data).toMatchObject({
      termsAccepted: false,
      sessionInformation: { email: "newhire@example.com" },
    });
    const terms = await b.get("/api/v1/session/terms-accepted");
    expect((await terms.json()).data).toEqual({ termsAccepted: false });
    expect((await b.form("/gateway/logout", {})).status).toBe(200);
    expect((await b.get("/api/v1/session")).status).toBe(401);
  });

  it("opens the data calls once the terms are accepted", async () => {
    const b = await newhire();
    expect((await b.json("/api/v1/session/terms-accepted", {})).status).toBe(200);
    expect((await b.get("/api/v1/session/subscription/stats")).status).toBe(200);
    expect((await b.get("/api/v1/account-messages")).status).toBe(200);
    expect((await b.get("/api/v1/account/mfa")).status).toBe(200);
  });
});
