import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { outbox } from "../../server/db/schema/index.ts";
import { NUL_REFUSED } from "../../server/http/nul.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSite } from "../../server/static/site.ts";
import { browser } from "./client.ts";
import { testConfig, useTestApp } from "./helpers.ts";

describe("HTTP behaviour", () => {
  const ctx = useTestApp();

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await ctx.app.request("/api/v1/does-not-exist");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: "Not found." }] });
  });

  it("refuses U+0000 in an address, a form or JSON with a 400, never a database error", async () => {
    const b = browser(ctx.app);
    for (const path of [
      "/auth/saml/login/%00",
      "/auth/saml/complete?ticket=a%00",
      "/gateway/reset-password/check?token=%00",
    ]) {
      const res = await b.get(path);
      expect(res.status).toBe(400);
      expect((await res.json()).data).toEqual([{ field: null, message: NUL_REFUSED }]);
    }
    const form = await b.form("/gateway/check-email", { emailAddress: "a\u0000@example.com" });
    expect(form.status).toBe(400);
    expect((await form.json()).data).toEqual([{ field: "emailAddress", message: NUL_REFUSED }]);
    const json = await b.json("/api/v1/device-data/push", { macAddress: "00:1A\u0000" });
    expect(json.status).toBe(400);
    expect((await json.json()).data).toEqual([{ field: null, message: NUL_REFUSED }]);
  });

  it("refuses text that is not UTF-8, a broken %-escape and a lone surrogate instead of storing it mangled", async () => {
    const post = (type: string, body: BodyInit) =>
      ctx.app.request("http://localhost/gateway/check-email", {
        method: "POST",
        headers: { origin: "http://localhost", "content-type": type },
        body,
      });
    const form = "application/x-www-form-urlencoded";
    for (const body of [
      "emailAddress=a%C3@example.com",
      "emailAddress=a%E0%A4%A@example.com",
      new Uint8Array([
        ...new TextEncoder().encode("emailAddress=a"),
        0xc3,
        ...new TextEncoder().encode("@x.com"),
      ]),
    ]) {
      const res = await post(form, body);
      expect(res.status, String(body)).toBe(400);
      expect((await res.json()).data).toEqual([{ field: "emailAddress", message: NUL_REFUSED }]);
    }
    const json = await browser(ctx.app).json("/api/v1/device-data/push", { macAddress: "00:1A\ud800" });
    expect(json.status).toBe(400);
    expect((await json.json()).data).toEqual([{ field: null, message: NUL_REFUSED }]);
    // In a query string too, where Hono keeps an escape it cannot decode as literal text.
    for (const query of ["token=%C3", "token=%ED%A0%80", "to%C3ken=1", "token=%EF%BF%BD"]) {
      const res = await ctx.app.request(`http://localhost/gateway/reset-password/check?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).data[0].message, query).toBe(NUL_REFUSED);
    }
    // Text that is well formed passes the edge (and meets the field's own rules).
    const fine = await post(form, "emailAddress=caf%C3%A9@example.com");
    expect(fine.status).not.toBe(400);
  });

  it("reports health when the database answers", async () => {
    const res = await ctx.app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("refuses a state-changing request from another site", async () => {
    const res = await ctx.app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
        cookie: "sid=x",
      },
      body: "a=1",
    });
    expect(res.status).toBe(403);
    expect((await res.json()).data[0].message).toBe("Cross-site request refused.");
    const siteOnly = await ctx.app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body: "a=1",
    });
    expect(siteOnly.status).toBe(403);
  });

  it("sends a page's native form post back to the page, never to another site", async () => {
    const dist = mkdtempSync(join(tmpdir(), "portal-dist-"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>home</title>");
    const site = loadSite(dist, { apiBase: "", webBase: "", accountBase: "", wsBase: "" }, []);
    const app = buildApp({ db: ctx.database.db, config: testConfig(), site });
    for (const [path, back] of [
      ["/gateway", "/gateway"],
      ["//evil.example/x", "/evil.example/x"],
      ["/.//evil.example/x", "/evil.example/x"],
    ]) {
      const res = await app.request(`http://localhost${path}`, {
        method: "POST",
        headers: { origin: "null", "sec-fetch-site": "same-origin", "content-type": "text/plain" },
        body: "emailAddress=admin%40example.com",
      });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe(back);
    }
  });

  it("lets a native form post of this very origin through (Origin null, same-origin) and no other", async () => {
    const post = (headers: Record<string, string>) =>
      ctx.app.request("/gateway/check-email", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "emailAddress=admin%40example.com",
      });
    expect((await post({ origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    for (const site of ["cross-site", "same-site", "none"])
      expect((await post({ origin: "null", "sec-fetch-site": site })).status, site).toBe(403);
    expect((await post({ origin: "null" })).status).toBe(403);
  });

  it("accepts the configured account origin as a sender", async () => {
    const app = buildApp({
      db: ctx.database.db,
      config: testConfig({ ACCOUNT_ORIGIN: "https://accounts.example" }),
    });
    const res = await app.request("/api/v1/device-data/push", {
      method: "POST",
      headers: { origin: "https://accounts.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
  });

  it("hides internal errors behind a generic 500 with a request id", async () => {
    const app = buildApp({ db: ctx.database.db, config: testConfig() });
    app.get("/boom", () => {
      throw new Error("secret detail");
    });
    const res = await app.request("/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret detail");
    expect(JSON.parse(text)).toEqual({
      success: false,
      data: [{ field: null, message: "Unexpected error." }],
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends secure headers and a locked-down CSP on API responses", async () => {
    const res = await ctx.app.request("/api/v1/nothing");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("lets no cache keep account and token responses, and gives them the API's CSP", async () => {
    const b = browser(ctx.app);
    const signUp = await b.form("/user/new/sign-up", { emailAddress: "invited@example.com" });
    const [mail] = await ctx.database.db.select().from(outbox);
    const token = /token=([\w-]+)/.exec(mail!.text)![1]!;
    const validate = await b.get(`/user/validate/check?token=${token}`);
    // The probe's example: this answer names the invited address.
    expect((await validate.clone().json()).data).toEqual({ email: "invited@example.com" });
    const responses = {
      signUp,
      validate,
      checkEmail: await b.form("/gateway/check-email", { emailAddress: "invited@example.com" }),
      resetCheck: await b.get("/gateway/reset-password/check?token=nope"),
      saml: await b.get("/auth/saml/login/nobody"),
      terms: await b.json("/terms/acknowledge", {}),
      unknownAccountPath: await b.get("/user/nothing-here"),
    };
    for (const [name, res] of Object.entries(responses)) {
      expect([name, res.headers.get("cache-control")]).toEqual([name, "no-store"]);
      expect([name, res.headers.get("content-security-policy")]).toEqual([
        name,
        "default-src 'none'; frame-ancestors 'none'",
      ]);
    }
  });

  it("serves the runtime configuration for static hosts", async () => {
    const app = buildApp({ db: ctx.database.db, config: testConfig({ API_ORIGIN: "https://api.example/" }) });
    const res = await app.request("/runtime-config.json");
    expect(await res.json()).toEqual({
      apiBase: "https://api.example",
      webBase: "",
      accountBase: "",
      wsBase: "",
    });
  });
});
