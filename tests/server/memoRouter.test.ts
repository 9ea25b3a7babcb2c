import { Hono } from "hono";
import type { Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { memoRouter } from "../../server/http/memoRouter.ts";
import { useTestApp } from "./helpers.ts";

const plain = <T>(): Router<T> => new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });

/** A path of each route, with a value in place of each parameter and wildcard, and a few strangers. */
function pathsOf(app: Hono): string[] {
  const made = app.routes.map((r) => r.path.replace(/:[^/]+/g, "p1").replace(/\*/g, "rest/x"));
  return [
    ...new Set([
      ...made,
      "/",
      "/nowhere",
      "/api",
      "/api/v1/orders/public",
      "/API/v1/session",
      "//api/v1/session",
    ]),
  ];
}

describe("the remembering router", () => {
  const ctx = useTestApp();

  it("matches every route of the app as Hono's own router does, the first time and again", () => {
    const routes = ctx.app.routes;
    const memo = memoRouter<unknown>();
    const own = plain<unknown>();
    for (const r of routes) {
      memo.add(r.method, r.path, r.handler);
      own.add(r.method, r.path, r.handler);
    }
    for (const path of pathsOf(ctx.app))
      for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
        const expected = own.match(method, path);
        expect(memo.match(method, path)).toEqual(expected);
        expect(memo.match(method, path)).toEqual(expected);
      }
  });

  it("forgets its answers when a route is added", () => {
    const memo = memoRouter(new TrieRouter<string>());
    memo.add("GET", "*", "site");
    expect(memo.match("GET", "/a")[0].map(([h]) => h)).toEqual(["site"]);
    memo.add("GET", "/a", "a");
    expect(memo.match("GET", "/a")[0].map(([h]) => h)).toEqual(["site", "a"]);
  });

  it("keeps at most 2,000 answers and matches long paths without keeping them", () => {
    let asked = 0;
    const inner = new TrieRouter<string>();
    const counted: Router<string> = {
      name: "counted",
      add: (m, p, h) => inner.add(m, p, h),
      match: (m, p) => (asked++, inner.match(m, p)),
    };
    const memo = memoRouter(counted);
    memo.add("GET", "/x/:id", "x");
    for (let i = 0; i < 2001; i++) memo.match("GET", `/x/${i}`);
    asked = 0;
    memo.match("GET", "/x/2000");
    expect(asked).toBe(0);
    memo.match("GET", "/x/0");
    expect(asked).toBe(1);
    const long = `/x/${"a".repeat(300)}`;
    memo.match("GET", long);
    memo.match("GET", long);
    expect(asked).toBe(3);
    expect(memo.match("GET", long)[0][0]?.[1]).toEqual({ id: "a".repeat(300) });
  });

  it("answers the portal's requests through it", async () => {
    expect(ctx.app.router.name).toMatch(/^memo\(/);
    const res = await ctx.app.request("/api/v1/session");
    expect(res.status).toBe(401);
  });
});
