import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { answerCache } from "../../server/core/answerCache.ts";
import { sessionAnswers } from "../../server/http/answers.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { sendSerialized, type Serialized } from "../../server/http/reply.ts";

const answer = (text: string): Serialized => ({
  json: JSON.stringify({ success: true, data: text }),
  gzip: async () => new Uint8Array(),
});

/**
 * The session route's reuse around a handler that takes `ms[i]` for its i-th call (Infinity:
 * never ends) and counts its calls.
 */
function sessionApp(ms: number[], ttlMs = 10_000) {
  const sessions = sessionAnswers(answerCache({ ttlMs, maxEntries: 10 }));
  let calls = 0;
  const app = new Hono().get("/s", sessions.reuse, async (c) => {
    const call = calls++;
    const wait = ms[call] ?? 0;
    await new Promise((resolve) => (Number.isFinite(wait) ? setTimeout(resolve, wait) : undefined));
    return sendSerialized(c, sessions.keep(c, answer(`answer ${call}`)), { gzip: false });
  });
  const check = async (token = "tok", headers: Record<string, string> = {}) => {
    const res = await app.request("/s", { headers: { cookie: `${SESSION_COOKIE}=${token}`, ...headers } });
    return (await res.json()).data as string;
  };
  return { check, calls: () => calls };
}

describe("a session's checks that arrive together", () => {
  it("share the answer the first one makes", async () => {
    const { check, calls } = sessionApp([50]);
    expect(await Promise.all([check(), check(), check()])).toEqual(Array(3).fill("answer 0"));
    expect(calls()).toBe(1);
  });

  it("wait at most a second for it, then make their own", async () => {
    const { check } = sessionApp([Infinity, 0]);
    void check();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    expect(await check()).toBe("answer 1");
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("do not wait when one asks for a fresh answer", async () => {
    const { check, calls } = sessionApp([300, 0]);
    const first = check();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await check("tok", { "cache-control": "no-cache" })).toBe("answer 1");
    expect(await first).toBe("answer 0");
    expect(calls()).toBe(2);
  });

  it("do not wait when the cache keeps nothing", async () => {
    const { check, calls } = sessionApp([300, 0], 0);
    const first = check();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    expect(await check()).toBe("answer 1");
    expect(performance.now() - started).toBeLessThan(250);
    await first;
    expect(calls()).toBe(2);
  });

  it("never share between sessions", async () => {
    const { check, calls } = sessionApp([50, 50]);
    expect(await Promise.all([check("one"), check("two")])).toEqual(["answer 0", "answer 1"]);
    expect(calls()).toBe(2);
  });
});
