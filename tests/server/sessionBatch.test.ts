import { describe, expect, it } from "vitest";
import { authOfSession } from "../../server/data/auth.ts";
import { authOfSessions, sessionBatcher } from "../../server/data/sessionBatch.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { signedIn } from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/* The live heartbeat's session checks: many tokens in one read, each answered as authOfSession would. */

describe("session checks in one read", () => {
  const ctx = useTestApp({ seeded: true });
  const tokenOf = async (email: string) => (await signedIn(ctx, email)).jar.get(SESSION_COOKIE)!;

  it("answers each token as authOfSession does, null for one that signs no one in", async () => {
    const db = ctx.database.db;
    const viewer = await tokenOf("viewer@example.com");
    const owner = await tokenOf("admin@example.com");
    const tokens = [viewer, owner, "no-such-session-token"];
    const found = await authOfSessions(db, tokens, TEST_NOW);
    for (const token of tokens) {
      const one = await authOfSession(db, token, TEST_NOW);
      expect(found.get(token)?.user.id ?? null).toBe(one?.user.id ?? null);
      expect(found.get(token)?.roleId ?? null).toBe(one?.roleId ?? null);
      expect(found.get(token)?.subscription.id ?? null).toBe(one?.subscription.id ?? null);
    }
    expect(found.get("no-such-session-token")).toBeNull();
    expect(found.get(viewer)?.user.email).toBe("viewer@example.com");
  });

  it("gives every caller of one turn its own answer, the same token's callers alike", async () => {
    const viewer = await tokenOf("viewer@example.com");
    const owner = await tokenOf("admin@example.com");
    const ask = sessionBatcher(ctx.database.db, () => TEST_NOW);
    const answers = await Promise.all([ask(viewer), ask(owner), ask(viewer), ask(null), ask("nobody-here")]);
    expect(answers.map((a) => a?.user.email ?? null)).toEqual([
      "viewer@example.com",
      "admin@example.com",
      "viewer@example.com",
      null,
      null,
    ]);
  });
});
