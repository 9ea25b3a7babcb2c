import { Hono } from "hono";
import { consume } from "../data/rateLimits.ts";
import { issueToken } from "../data/tokens.ts";
import { findUserByEmail } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { linkOrigin } from "../http/links.ts";
import { reply } from "../http/reply.ts";
import { requestPasswordReset } from "../../src/api/gateway.ts";

const RESET_SENT = "If an account uses that address, we have sent it a link to reset the password.";

/** Forgotten passwords, step one: mails a single-use link valid for one hour (answers alike for any address). */
export function resetRequestRoutes(deps: Deps) {
  const { db, config, now, mailer } = deps;
  return new Hono().post(requestPasswordReset.path, guard(requestPasswordReset, deps), async (c) => {
    const { emailAddress } = await inputOf(c, requestPasswordReset);
    const t = now();
    const ip = clientIp(c, config.trustProxy);
    await consume(db, { key: `reset-ip:${ip}`, max: 10, windowSeconds: 3600 }, t, "emailAddress");
    await consume(db, { key: `reset:${emailAddress}`, max: 3, windowSeconds: 3600 }, t, "emailAddress");
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
        secretUntil: new Date(t.getTime() + 3_600_000),
        text: `Someone asked to reset the password of your Device Portal account.\n\nChoose a new password here (the link works once, for one hour):\n${linkOrigin(config)}/gateway/reset-password?token=${token}\n\nIf it was not you, ignore this message; your password stays as it is.`,
      });
    }
    return reply(c, requestPasswordReset, { message: RESET_SENT });
  });
}
