import { and, eq, isNull, lt, or } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { users } from "../db/schema/index.ts";
import { clientIp } from "../http/clientIp.ts";
import { ApiError } from "../core/errors.ts";
import { formBody } from "../http/input.ts";
import { findUserByEmail, samlConfigOf } from "../services/accounts.ts";
import { verifyOrDummy } from "../services/passwords.ts";
import {
  codeFailures,
  consume,
  passwordFailures,
  release,
  reserve,
  runCounted,
} from "../services/rateLimit.ts";
import * as s from "../services/sessions.ts";
import { matchTotp } from "../services/totp.ts";
import {
  CHALLENGE_EXPIRED,
  INVALID_EMAIL,
  WRONG_CREDENTIALS,
  WRONG_OTP,
  isEmail,
} from "../../src/domain/auth.ts";

export const emailField = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .refine((v) => isEmail(v), INVALID_EMAIL);
export const FEDERATED_ONLY = "Your organization signs in through its identity provider.";
const MINUTES_15 = 900;

/** The sign-in card's three steps and sign-out (form-encoded, account host). */
export function gatewayRoutes({ db, config, now }: Deps) {
  return new Hono()
    .post("/check-email", async (c) => {
      const { emailAddress } = await formBody(c, z.object({ emailAddress: emailField }));
      await consume(
        db,
        { key: `check-email:${clientIp(c, config.trustProxy)}`, max: 60, windowSeconds: 600 },
        now(),
        "emailAddress",
      );
      const user = await findUserByEmail(db, emailAddress);
      const samlConfigName = user ? await samlConfigOf(db, user) : null;
      const mfaRequired = !!user?.totpSecret && !(await s.isRememberedDevice(c, db, user.id, now()));
      return c.json({ success: true, data: { samlConfigName, mfaRequired } });
    })
    .post("/submit", async (c) => {
      const form = await formBody(
        c,
        z.object({
          emailAddress: emailField,
          password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
        }),
      );
      const t = now();
      await consume(
        db,
        { key: `signin-ip:${clientIp(c, config.trustProxy)}`, max: 100, windowSeconds: MINUTES_15 },
        t,
        "password",
      );
      // Counted as a failure before the hash and given back on success, so parallel guesses
      // cannot all pass the check before any of them is counted.
      const slot = await reserve(db, passwordFailures(form.emailAddress), t, "password");
      const user = await findUserByEmail(db, form.emailAddress);
      // Unknown addresses and people without a password pay for a hash too.
      const ok = await runCounted(db, slot, () => verifyOrDummy(form.password, user?.passwordHash));
      if (!user || !ok) throw new ApiError(401, [{ field: "password", message: WRONG_CREDENTIALS }]);
      await release(db, slot);
      if (await samlConfigOf(db, user))
        throw new ApiError(403, [{ field: "emailAddress", message: FEDERATED_ONLY }]);
      if (user.totpSecret && !(await s.isRememberedDevice(c, db, user.id, t))) {
        await s.startChallenge(c, db, user.id, t);
        return c.json({ success: true, data: { mfaRequired: true } });
      }
      await s.startSession(c, db, user.id, t);
      return c.json({ success: true, data: { mfaRequired: false } });
    })
    .post("/verify-otp", async (c) => {
      const form = await formBody(
        c,
        z.object({ otp: z.string().trim().default(""), remember: z.enum(["1", "0"]).default("0") }),
      );
      const t = now();
      const challenge = await s.currentChallenge(c, db, t);
      if (!challenge) throw new ApiError(401, [{ field: "otp", message: CHALLENGE_EXPIRED }]);
      const slot = await reserve(db, codeFailures(challenge.userId), t, "otp");
      const [user] = await db.select().from(users).where(eq(users.id, challenge.userId));
      const step = user?.totpSecret ? await matchTotp(user.totpSecret, form.otp, t, user.totpLastStep) : null;
      // Claim the step atomically: a code works once even when two requests race.
      const claimed =
        step !== null &&
        (
          await db
            .update(users)
            .set({ totpLastStep: step })
            .where(
              and(
                eq(users.id, challenge.userId),
                or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
              ),
            )
            .returning({ id: users.id })
        ).length === 1;
      if (!claimed) throw new ApiError(401, [{ field: "otp", message: WRONG_OTP }]);
      await release(db, slot);
      await s.endChallenge(c, db, challenge.idHash);
      if (form.remember === "1") await s.rememberDevice(c, db, challenge.userId, t);
      await s.startSession(c, db, challenge.userId, t);
      return c.json({ success: true, data: {} });
    })
    .post("/logout", async (c) => {
      await s.endSession(c, db);
      return c.json({ success: true, data: {} });
    });
}
