import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { users } from "../db/schema/index.ts";
import { clientIp } from "../http/clientIp.ts";
import { ApiError } from "../core/errors.ts";
import { formBody } from "../http/input.ts";
import { findUserByEmail, issueToken, peekToken, takeResetToken } from "../services/accounts.ts";
import { hashPassword } from "../services/passwords.ts";
import { clear, consume, passwordFailures } from "../services/rateLimit.ts";
import { endEverySignIn, startSession } from "../services/sessions.ts";
import { LINK_INVALID, PASSWORD_RULE, passwordError } from "../../src/domain/auth.ts";
import { emailField } from "./gateway.ts";
import { linkBase } from "../http/links.ts";

export const RESET_SENT = "If an account uses that address, we have sent it a link to reset the password.";
export const passwordField = z
  .string({ error: PASSWORD_RULE })
  .refine((p) => passwordError(p) === null, PASSWORD_RULE);

/** Forgotten passwords: an emailed, single-use link valid for one hour. */
export function passwordResetRoutes({ db, config, now, mailer }: Deps) {
  return new Hono()
    .post("/request-password-reset", async (c) => {
      const { emailAddress } = await formBody(c, z.object({ emailAddress: emailField }));
      const t = now();
      await consume(
        db,
        { key: `reset-ip:${clientIp(c, config.trustProxy)}`, max: 10, windowSeconds: 3600 },
        t,
        "emailAddress",
      );
      await consume(
        db,
        { key: `reset:${emailAddress.toLowerCase()}`, max: 3, windowSeconds: 3600 },
        t,
        "emailAddress",
      );
      const user = await findUserByEmail(db, emailAddress);
      if (user) {
        const token = await issueToken(
          db,
          { purpose: "reset", email: user.email, userId: user.id, hours: 1 },
          t,
        );
        await mailer.send({
          to: user.email,
          subject: "Reset your Device Portal password",
          text: `Someone asked to reset the password of your Device Portal account.\n\nChoose a new password here (the link works once, for one hour):\n${linkBase(c, config)}/gateway/reset-password?token=${token}\n\nIf it was not you, ignore this message; your password stays as it is.`,
        });
      }
      return c.json({ success: true, data: { message: RESET_SENT } });
    })
    .get("/reset-password/check", async (c) => {
      const ok = !!(await peekToken(db, c.req.query("token") ?? "", "reset", now()));
      return c.json(
        { success: ok, data: ok ? {} : [{ field: "token", message: LINK_INVALID }] },
        ok ? 200 : 400,
      );
    })
    .post("/reset-password", async (c) => {
      const form = await formBody(c, z.object({ token: z.string().default(""), password: passwordField }));
      const t = now();
      const invalid = new ApiError(400, [{ field: "token", message: LINK_INVALID }]);
      // Look before hashing (no hash for a made-up token); take only once the hash is ready,
      // so a busy server does not burn the link.
      if (!(await peekToken(db, form.token, "reset", t))) throw invalid;
      const passwordHash = await hashPassword(form.password);
      const user = await db.transaction(async (tx) => {
        const userId = await takeResetToken(tx, form.token, t);
        if (userId === null) throw invalid;
        const [changed] = await tx
          .update(users)
          .set({ passwordHash })
          .where(eq(users.id, userId))
          .returning();
        await endEverySignIn(tx, userId, t);
        return changed!;
      });
      await clear(db, passwordFailures(user.email));
      // The mailbox alone is one factor: a person with codes on signs in again, code and all.
      const mfaRequired = user.totpSecret !== null;
      if (!mfaRequired) await startSession(c, db, user.id, t);
      return c.json({ success: true, data: { signedIn: !mfaRequired, mfaRequired } });
    });
}
