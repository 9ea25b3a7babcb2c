import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { outbox } from "../../server/db/schema/index.ts";
import { isLoopbackAddress, isLoopbackListen } from "../../server/http/hostNames.ts";
import { HOST_REFUSED } from "../../server/http/hosts.ts";
import { testConfig, TEST_NOW, useTestApp } from "./helpers.ts";

const RESET = "/gateway/request-password-reset";
const SIGN_UP = "/user/new/sign-up";
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

describe("host names", () => {
  const ctx = useTestApp({ seeded: true });
  const appWith = (env: Record<string, string>) =>
    buildApp({ db: ctx.database.db, config: testConfig(env), now: () => TEST_NOW });
  const mailTexts = async () => (await ctx.database.db.select().from(outbox)).map((m) => m.text);

  it("refuses a password reset asked through a foreign Host and mails nothing", async () => {
    // The probe's attack: no Origin header, the attacker's name in Host, a real address.
    const viaUrl = await ctx.app.request(
      `http://evil.example${RESET}`,
      form({ emailAddress: "viewer@example.com" }),
    );
    const viaHeader = await ctx.app.request(
      `http://localhost${RESET}`,
      form({ emailAddress: "viewer@example.com" }, { host: "evil.example" }),
    );
    for (const res of [viaUrl, viaHeader]) {
      expect(res.status).toBe(421);
      expect(await res.json()).toEqual({ success: false, data: [{ field: null, message: HOST_REFUSED }] });
    }
    expect(await mailTexts()).toEqual([]);
  });

  it("refuses a sign-up sent through a foreign Host and mails nothing", async () => {
    const res = await ctx.app.request(
      `http://evil.example${SIGN_UP}`,
      form({ emailAddress: "new@example.com" }),
    );
    expect(res.status).toBe(421);
    expect(await mailTexts()).toEqual([]);
  });

  it("builds emailed links from the loopback origin, never from a Host a proxy let through", async () => {
    const app = appWith({ ALLOWED_HOSTS: "evil.example" });
    const reset = await app.request(
      `http://evil.example${RESET}`,
      form({ emailAddress: "viewer@example.com" }),
    );
    const signUp = await app.request(
      `http://evil.example${SIGN_UP}`,
      form({ emailAddress: "new@example.com" }),
    );
    expect([reset.status, signUp.status]).toEqual([200, 200]);
    const texts = await mailTexts();
    expect(texts).toHaveLength(2);
    expect(texts.join("\n")).not.toContain("evil.example");
    expect(texts.join("\n")).toContain("http://localhost:4321/gateway/reset-password?token=");
    expect(texts.join("\n")).toContain("http://localhost:4321/user/validate?token=");
  });

  it("builds emailed links on the account origin, else the public origin", async () => {
    const both = appWith({
      ACCOUNT_ORIGIN: "https://accounts.example",
      PUBLIC_ORIGIN: "https://portal.example",
      ALLOWED_HOSTS: "evil.example",
    });
    await both.request(`http://evil.example${RESET}`, form({ emailAddress: "viewer@example.com" }));
    const publicOnly = appWith({ PUBLIC_ORIGIN: "https://portal.example" });
    await publicOnly.request(`http://localhost${SIGN_UP}`, form({ emailAddress: "new@example.com" }));
    const [reset, signUp] = await mailTexts();
    expect(reset).toContain("\nhttps://accounts.example/gateway/reset-password?token=");
    expect(signUp).toContain("\nhttps://portal.example/user/validate?token=");
  });

  it("answers API calls to a foreign Host with the error list and pages with plain text", async () => {
    const api = await ctx.app.request("http://evil.example/api/v1/session");
    expect(api.status).toBe(421);
    expect((await api.json()).data).toEqual([{ field: null, message: HOST_REFUSED }]);
    const page = await ctx.app.request("http://evil.example/gateway", { headers: { accept: "text/html" } });
    expect(page.status).toBe(421);
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await page.text()).toBe(HOST_REFUSED);
  });

  it("accepts loopback names, the configured origins' hosts and ALLOWED_HOSTS", async () => {
    const app = appWith({
      ACCOUNT_ORIGIN: "https://accounts.example",
      API_ORIGIN: "http://api.example:8080",
      ALLOWED_HOSTS: "proxy.internal:9000, Other.Example",
    });
    const status = async (host: string) => (await app.request(`http://${host}/api/v1/nothing`)).status;
    const accepted = [
      "localhost",
      "localhost:4321",
      "accounts.localhost:4412",
      "127.0.0.1:4411",
      "[::1]:4321",
      "accounts.example",
      "accounts.example:443",
      "api.example:8080",
      "proxy.internal:9000",
      "proxy.internal",
      "other.example:1234",
      "accounts.example.",
      "localhost.:4321",
    ];
    for (const host of accepted) expect([host, await status(host)]).toEqual([host, 404]);
    const refused = ["evil.example", "api.example:9999", "proxy.internal:9001", "0.0.0.0:4321"];
    for (const host of refused) expect([host, await status(host)]).toEqual([host, 421]);
  });

  it("refuses the names a DNS-rebinding page would send", async () => {
    for (const host of ["attacker.example:4321", "localhost.attacker.example", "127.0.0.1.nip.io:4321"]) {
      const res = await ctx.app.request(`http://localhost/api/v1/session`, { headers: { host } });
      expect([host, res.status]).toEqual([host, 421]);
    }
  });

  it("still refuses a foreign name after many accepted ones, asked again and again", async () => {
    const app = appWith({});
    const status = async (host: string) => (await app.request(`http://${host}/api/v1/nothing`)).status;
    for (let port = 1000; port < 1100; port++) expect(await status(`localhost:${port}`)).toBe(404);
    for (let i = 0; i < 3; i++) expect(await status("evil.example")).toBe(421);
    const res = await app.request("http://localhost:1000/api/v1/nothing", {
      headers: { host: "evil.example" },
    });
    expect(res.status).toBe(421);
  });

  it("answers /healthz whatever the Host, for load balancers that probe by address", async () => {
    const res = await ctx.app.request("http://10.1.2.3:4321/healthz");
    expect(res.status).toBe(200);
  });
});

describe("loopback addresses", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["10.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["0.0.0.0", false],
    [undefined, false],
  ])("treats the socket peer %s as loopback: %s", (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });

  it.each([
    ["127.0.0.1", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["", false],
    ["192.168.1.5", false],
    ["portal.internal", false],
  ])("treats HOST=%s as listening on loopback only: %s", (host, loopback) => {
    expect(isLoopbackListen(host)).toBe(loopback);
  });
});
