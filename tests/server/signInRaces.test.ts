import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findChallenge, startChallenge } from "../../server/data/challenges.ts";
import { enableTotp } from "../../server/data/mfa.ts";
import { setPasswordFromLink } from "../../server/data/passwordReset.ts";
import { rememberDevice } from "../../server/data/rememberedDevices.ts";
import { startSession } from "../../server/data/sessions.ts";
import { issueToken } from "../../server/data/tokens.ts";
import { sessions, users } from "../../server/db/schema/index.ts";
import { CHALLENGE_COOKIE, SESSION_COOKIE } from "../../server/http/cookies.ts";
import { hashPassword } from "../../server/services/passwords.ts";
import { WRONG_CREDENTIALS } from "../../src/domain/auth.ts";
import { browser } from "./client.ts";
import { holdHashPlaces, untilWaiting } from "./hashPlaces.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * A password reset ends every sign-in of the person. A sign-in that read the person and was
 * still checking the old password when the reset committed must not start a session (or a
 * half-done sign-in) afterwards: the old password would outlive the reset.
 */

const VIEWER = "viewer@example.com";
const OLD = "demo-password-1";
const NEW = "brand-new-password";
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

describe("a sign-in racing a password reset", () => {
  const ctx = useTestApp({ seeded: true });
  const viewer = async () => (await ctx.database.db.select().from(users).where(eq(users.email, VIEWER)))[0]!;
  /** Resets the viewer's password as the emailed link does, with a hash made beforehand. */
  const reset = async (newHash: string) => {
    const { id } = await viewer();
    const token = await issueToken(
      ctx.database.db,
      { purpose: "reset", email: VIEWER, userId: id, hours: 1 },
      TEST_NOW,
    );
    expect(await setPasswordFromLink(ctx.database.db, token, newHash, TEST_NOW)).not.toBeNull();
  };

  /**
   * Signs in with the old password while every hash place is held, so the sign-in waits with
   * its row read; makes `change` meanwhile; then lets the sign-in go on. Returns its browser
   * and answer.
   */
  const signInAcross = async (change: () => Promise<void>) => {
    const open = holdHashPlaces();
    const b = browser(ctx.app);
    const signingIn = b.form("/gateway/submit", { emailAddress: VIEWER, password: OLD });
    await untilWaiting(1);
    await change();
    await open();
    return { b, res: await signingIn };
  };
  const signInAcrossReset = async () => {
    const newHash = await hashPassword(NEW);
    return signInAcross(() => reset(newHash));
  };

  it("starts no session when the reset commits while the old password is checked", async () => {
    const { b, res } = await signInAcrossReset();
    expect(res.status).toBe(401);
    expect((await res.json()).data).toEqual([{ field: "password", message: WRONG_CREDENTIALS }]);
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    expect((await b.get("/api/v1/session")).status).toBe(401);
    // The new password signs in; the old one does not.
    expect((await b.form("/gateway/submit", { emailAddress: VIEWER, password: OLD })).status).toBe(401);
    expect((await b.form("/gateway/submit", { emailAddress: VIEWER, password: NEW })).status).toBe(200);
  });

  it("starts no half-done sign-in for a person with codes on when the reset commits meanwhile", async () => {
    await ctx.database.db.update(users).set({ totpSecret: SECRET }).where(eq(users.email, VIEWER));
    const { b, res } = await signInAcrossReset();
    expect(res.status).toBe(401);
    expect(b.jar.has(CHALLENGE_COOKIE)).toBe(false);
  });

  it("starts no session without a code when the person turns codes on while the password is checked", async () => {
    const { id } = await viewer();
    const { b, res } = await signInAcross(() => enableTotp(ctx.database.db, id, SECRET, 1));
    expect(res.status).toBe(401);
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    expect((await b.get("/api/v1/session")).status).toBe(401);
    // Signing in again asks for the code.
    const again = await b.form("/gateway/submit", { emailAddress: VIEWER, password: OLD });
    expect(again.status).toBe(200);
    expect((await again.json()).data).toEqual({ mfaRequired: true });
  });

  it("keeps a session or challenge made before the reset from surviving it, and makes none after", async () => {
    const { db } = ctx.database;
    const { id, credentialVersion } = await viewer();
    const before = await startSession(
      db,
      { userId: id, previous: null, browser: "x", credentialVersion },
      TEST_NOW,
    );
    const challenge = await startChallenge(db, id, credentialVersion, TEST_NOW);
    expect(before).not.toBeNull();
    expect((await findChallenge(db, challenge!, TEST_NOW))?.credentialVersion).toBe(credentialVersion);
    await reset(await hashPassword(NEW));
    // The reset ended both; what a sign-in that read the old version asks for now is refused.
    expect(await findChallenge(db, challenge!, TEST_NOW)).toBeNull();
    expect(
      await startSession(db, { userId: id, previous: null, browser: "x", credentialVersion }, TEST_NOW),
    ).toBeNull();
    expect(await startChallenge(db, id, credentialVersion, TEST_NOW)).toBeNull();
    expect(await rememberDevice(db, id, credentialVersion, TEST_NOW)).toBeNull();
    expect((await viewer()).credentialVersion).toBe(credentialVersion + 1);
  });
});

const url = process.env["TEST_DATABASE_URL"];

describe.skipIf(!url)("a sign-in racing a password reset on PostgreSQL", () => {
  const ctx = useTestApp({ seeded: true });

  it("waits for a reset under way and then starts nothing", async () => {
    const { db } = ctx.database;
    const { id, credentialVersion } = (await db.select().from(users).where(eq(users.email, VIEWER)))[0]!;
    // The reset's own statements, held uncommitted on a connection of its own.
    const { default: pg } = await import("pg");
    const reset = new pg.Client({ connectionString: poolUrl(db) });
    await reset.connect();
    try {
      await reset.query("begin");
      await reset.query("update users set credential_version = credential_version + 1 where id = $1", [id]);
      await reset.query("delete from sessions where user_id = $1", [id]);
      let settled = false;
      const signingIn = startSession(
        db,
        { userId: id, previous: null, browser: "x", credentialVersion },
        TEST_NOW,
      );
      void signingIn.finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      // Without the share lock the sign-in read the committed version and made its session.
      expect(settled).toBe(false);
      await reset.query("commit");
      expect(await signingIn).toBeNull();
      expect(await db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    } finally {
      await reset.end();
    }
  });
});

/** The connection string of the test's own PostgreSQL database. */
function poolUrl(db: unknown): string {
  const options = (db as { $client: { options: { connectionString: string } } }).$client.options;
  return options.connectionString;
}
