import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { CONFIG_PLACEHOLDER, inlineScriptHashes } from "../../server/static/html.ts";
import { shellFor } from "../../server/static/shells.ts";
import { loadSite } from "../../server/static/site.ts";
import { parseConfig } from "../../server/config.ts";
import { testConfig, useTestApp } from "./helpers.ts";

/** A dist/ folder with the given pages (path -> body), each with one inline module script. */
function writeDist(pages: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "dist-"));
  for (const [rel, body] of Object.entries(pages)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(
      join(dir, rel),
      `<html><head>${CONFIG_PLACEHOLDER}</head><body>${body}<script type="module">go()</script></body></html>`,
    );
  }
  return dir;
}

function fakeDist() {
  const dir = writeDist({
    "p/quote/_/index.html": "quote shell",
    "s/index.html": "app shell",
    "index.html": "home",
    "404.html": "not found page",
  });
  mkdirSync(join(dir, "_astro"));
  writeFileSync(join(dir, "_astro/app.abc123.js"), "console.log(1)");
  writeFileSync(join(dir, "_astro/app.abc123.js.gz"), "gz-bytes");
  const site = loadSite(dir, { apiBase: "https://api.example", accountBase: "</script><x>" }, [
    "https://api.example",
  ]);
  return new Hono().get("*", site.handler);
}

describe("static site", () => {
  const app = fakeDist();

  it("maps every dynamic route of the spec to its shell", () => {
    expect(shellFor("/p/quote/QUO-12")).toBe("/p/quote/_/index.html");
    expect(shellFor("/p/quote/pay-as-guest/abc")).toBe("/p/quote/pay-as-guest/_/index.html");
    expect(shellFor("/p/order/ORD-1-abc")).toBe("/p/order/_/index.html");
    expect(shellFor("/p/order/pay-as-guest/abc")).toBe("/p/order/pay-as-guest/_/index.html");
    expect(shellFor("/public/report/h4sh")).toBe("/public/report/_/index.html");
    expect(shellFor("/p/device/h4sh")).toBe("/p/device/_/index.html");
    expect(shellFor("/public/device/h4sh")).toBe("/public/device/_/index.html");
    expect(shellFor("/links/5")).toBe("/links/_/index.html");
    expect(shellFor("/s/order/details/12")).toBe("/s/index.html");
    expect(shellFor("/s")).toBe("/s/index.html");
    expect(shellFor("/p/quote/a/b")).toBeNull();
    expect(shellFor("/somewhere")).toBeNull();
  });

  it("serves a shell with the runtime configuration written in, safely escaped", async () => {
    const res = await app.request("/p/quote/QUO-7");
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("quote shell");
    expect(html).toContain('"apiBase":"https://api.example"');
    expect(html).not.toContain("</script><x>");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
  });

  it("allows exactly the page's inline scripts in its CSP", async () => {
    const res = await app.request("/s/anything");
    const csp = res.headers.get("content-security-policy")!;
    const [hash] = inlineScriptHashes(await res.text());
    expect(csp).toContain(`script-src 'self' ${hash}`);
    expect(csp).toContain("connect-src 'self' https://api.example");
    expect(csp).toContain("object-src 'none'");
  });

  it("does not hash JSON data blocks or external scripts", () => {
    const html = `<script type="application/json">{}</script><script src="/a.js"></script><script>x()</script>`;
    expect(inlineScriptHashes(html)).toHaveLength(1);
  });

  it("sends hashed assets precompressed with a year-long immutable cache", async () => {
    const res = await app.request("/_astro/app.abc123.js", {
      headers: { "accept-encoding": "gzip, deflate" },
    });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toBe("gz-bytes");
    const plain = await app.request("/_astro/app.abc123.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe("console.log(1)");
  });

  it("compresses HTML for clients that accept it", async () => {
    const res = await app.request("/", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toContain("home");
  });

  it("answers a matching ETag with 304", async () => {
    const first = await app.request("/");
    const res = await app.request("/", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(res.status).toBe(304);
  });

  it("shows the 404 page for unknown paths and path tricks", async () => {
    for (const path of ["/nothing-here", "/%2e%2e/%2e%2e/etc/passwd", "/%E0%A4%A"]) {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("not found page");
    }
  });
});

describe("account pages from the build", () => {
  const ctx = useTestApp();

  it("are never stored by a cache and keep their own script-hash CSP", async () => {
    const pages = ["gateway", "gateway/reset-password", "user/register", "user/validate", "user/welcome"];
    const dir = writeDist({
      "index.html": "home",
      ...Object.fromEntries(pages.map((p) => [`${p}/index.html`, p])),
    });
    const site = loadSite(dir, {}, []);
    const app = buildApp({ db: ctx.database.db, config: testConfig(), site });
    for (const path of pages.map((p) => `/${p}`)) {
      const res = await app.request(path);
      expect([path, res.status, res.headers.get("cache-control")]).toEqual([path, 200, "no-store"]);
      const [hash] = inlineScriptHashes(await res.text());
      expect(res.headers.get("content-security-policy")).toContain(`script-src 'self' ${hash}`);
    }
    const home = await app.request("/");
    expect(home.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
  });
});

describe("the developers' UI kit page", () => {
  const ctx = useTestApp();
  /** What @hono/node-server passes the app for a connection from this address. */
  const socketFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
  const site = loadSite(writeDist({ "ui-kit/index.html": "ui kit", "404.html": "not found page" }), {}, []);
  const appWith = (env: Record<string, string>) =>
    buildApp({ db: ctx.database.db, config: parseConfig(env), site });
  const paths = ["/ui-kit", "/ui-kit/", "/ui-kit/index.html", "/%75i-kit"];

  it("shows the UI kit to this computer in demo mode, as /dev/mailbox", async () => {
    for (const app of [appWith({}), appWith({ DEMO: "1", ALLOWED_HOSTS: "demo.example" })])
      for (const path of paths) {
        const res = await app.request(`http://localhost:4321${path}`, {}, socketFrom("127.0.0.1"));
        expect([path, res.status, await res.text()]).toEqual([path, 200, expect.stringContaining("ui kit")]);
      }
  });

  it("is the 404 page for another computer, through a proxy, and outside demo mode", async () => {
    const shared = appWith({ DEMO: "1", ALLOWED_HOSTS: "demo.example" });
    const refused = [
      () => shared.request("http://localhost:4321/ui-kit", {}, socketFrom("203.0.113.7")),
      () => shared.request("http://demo.example/ui-kit", {}, socketFrom("127.0.0.1")),
      () =>
        shared.request(
          "http://localhost:4321/ui-kit/",
          { headers: { "x-forwarded-for": "198.51.100.4" } },
          socketFrom("127.0.0.1"),
        ),
      ...paths.map(
        (path) => () =>
          appWith({ DEMO: "0" }).request(`http://localhost:4321${path}`, {}, socketFrom("127.0.0.1")),
      ),
    ];
    for (const request of refused) {
      const res = await request();
      expect([res.status, await res.text()]).toEqual([404, expect.stringContaining("not found page")]);
    }
  });
});
