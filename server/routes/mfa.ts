import { and, eq, isNull } from "drizzle-orm";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import QRCode from "qrcode";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { rememberedDevices, users } from "../db/schema/index.ts";
import { authOf, requireAuth } from "../http/auth.ts";
import { sha256 } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import { jsonBody } from "../http/input.ts";
import { asOwner } from "../services/hashQueue.ts";
import { verifyPassword } from "../services/passwords.ts";
import { passwordFailures, release, reserve, runCounted } from "../services/rateLimit.ts";
import { SESSION_COOKIE } from "../services/sessions.ts";
import { matchTotp, newTotpSecret, totpUri } from "../services/totp.ts";
import type { User } from "../services/accounts.ts";
import { WRONG_OTP } from "../../src/domain/auth.ts";

const INCORRECT_PASSWORD = "Incorrect password.";

/** Turning the one-time code on (QR code, confirmed by a first code) and off again. */
export function mfaRoutes({ db, now }: Deps) {
  const revokeRemembered = (userId: number) =>
    db
      .update(rememberedDevices)
      .set({ revokedAt: now() })
      .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
  /**
   * A stolen session must not be a free password oracle: wrong passwords count against the
   * same limit as sign-in (counted before the hash, given back when right), and the person
   * has one hash running at a time.
   */
  const checkPassword = async (user: User, password: string) => {
    if (!user.passwordHash) throw new ApiError(400, [{ field: "password", message: INCORRECT_PASSWORD }]);
    const slot = await reserve(db, passwordFailures(user.email), now(), "password");
    const stored = user.passwordHash;
    const ok = await runCounted(db, slot, () =>
      verifyPassword(password, stored, { owner: `user:${user.id}` }),
    );
    if (!ok) throw new ApiError(400, [{ field: "password", message: INCORRECT_PASSWORD }]);
    await release(db, slot);
  };
  return new Hono()
    .use("/disable", async (c, next) => {
      // One password check per session at a time, refused before any database work.
      const token = getCookie(c, SESSION_COOKIE);
      await (token ? asOwner(`session:${sha256(token)}`, next) : next());
    })
    .use(requireAuth(db, now))
    .get("/", async (c) => {
      const { user } = authOf(c);
      const remembered = (
        await db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id))
      ).filter((r) => !r.revokedAt && r.expiresAt > now()).length;
      return c.json({
        success: true,
        data: { enabled: user.totpSecret !== null, rememberedDevices: remembered },
      });
    })
    .post("/setup", async (c) => {
      const { user } = authOf(c);
      if (user.totpSecret) throw new ApiError(409, "The one-time passcode is already on.");
      const secret = newTotpSecret();
      await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, user.id));
      const uri = totpUri(secret, user.email);
      const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1 });
      return c.json({ success: true, data: { secret, otpauthUri: uri, qrSvg } });
    })
    .post("/enable", async (c) => {
      const { code } = await jsonBody(c, z.strictObject({ code: z.string().trim() }));
      const { user } = authOf(c);
      if (!user.totpPendingSecret) throw new ApiError(409, "Start the setup first.");
      const step = await matchTotp(user.totpPendingSecret, code, now(), null);
      if (step === null) throw new ApiError(400, [{ field: "code", message: WRONG_OTP }]);
      await db
        .update(users)
        .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step })
        .where(eq(users.id, user.id));
      return c.json({ success: true, data: { enabled: true } });
    })
    .post("/disable", async (c) => {
      const { password } = await jsonBody(c, z.strictObject({ password: z.string() }));
      const { user } = authOf(c);
      await checkPassword(user, password);
      await db
        .update(users)
        .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
        .where(eq(users.id, user.id));
      await revokeRemembered(user.id);
      return c.json({ success: true, data: { enabled: false } });
    })
    .delete("/remembered-devices", async (c) => {
      await revokeRemembered(authOf(c).user.id);
      return c.json({ success: true, data: { rememberedDevices: 0 } });
    });
}
