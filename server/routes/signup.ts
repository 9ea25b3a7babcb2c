import { Hono } from "hono";
import { consume } from "../data/rateLimits.ts";
import { issueToken } from "../data/tokens.ts";
import { findUserByEmail, samlConfigOf } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { inputOf } from "../http/input.ts";
import { linkOrigin } from "../http/links.ts";
import { reply } from "../http/reply.ts";
import { signUp } from "../../src/api/accounts.ts";

/** How long a registration link works (once). */
const REGISTER_HOURS = 24;

/**
 * Registration from the public order and quote cards: mails a validation link, or says the
 * address already has an account (and where it signs in, when federated).
 */
export function signupRoutes(deps: Deps) {
  const { db, config, now, mailer } = deps;
  return new Hono().post(signUp.path, guard(signUp, deps), async (c) => {
    const { emailAddress: email, referrer } = await inputOf(c, signUp);
    const t = now();
    const ip = clientIp(c, config.trustProxy);
    await consume(db, { key: `signup-ip:${ip}`, max: 20, windowSeconds: 3600 }, t, "emailAddress");
    await consume(db, { key: `signup:${email}`, max: 5, windowSeconds: 3600 }, t, "emailAddress");
    const user = await findUserByEmail(db, email);
    if (user) {
      const samlConfigName = await samlConfigOf(db, user);
      return reply(c, signUp, { userExists: 1, ...(samlConfigName ? { samlConfigName } : {}) });
    }
    const token = await issueToken(
      db,
      { purpose: "register", email, referrer: referrer || null, hours: REGISTER_HOURS },
      t,
    );
    await mailer.send({
      to: email,
      subject: "Validate your Device Portal account",
      secretUntil: new Date(t.getTime() + REGISTER_HOURS * 3_600_000),
      text: `Welcome to the Device Portal.\n\nValidate your account and choose a password here (the link works once, for 24 hours):\n${linkOrigin(config)}/user/validate?token=${token}\n\nIf you did not ask for an account, ignore this message.`,
    });
    return reply(c, signUp, { userExists: 0 });
  });
}
