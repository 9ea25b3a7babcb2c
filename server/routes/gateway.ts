import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { claimTotpStep } from "../data/mfa.ts";
import { codeFailures, consume, passwordFailures, release, reserve, runCounted } from "../data/rateLimits.ts";
import { findUser, findUserByEmail, samlConfigOf, strengthenPasswordHash } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import {
  browserChallenge,
  endBrowserChallenge,
  isRememberedBrowser,
  rememberBrowser,
  signInBrowser,
  signOutBrowser,
  startBrowserChallenge,
} from "../http/cookies.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { signedIn, signInEvent } from "../flows/audited.ts";
import { HASH_BUSY, hashQueueFull, strengthenIfWeaker, verifyOrDummy } from "../services/passwords.ts";
import { matchTotp } from "../services/totp.ts";
import { checkEmail, logout, submitPassword, verifyOtp } from "../../src/api/gateway.ts";
import { CHALLENGE_EXPIRED, WRONG_CREDENTIALS, WRONG_OTP } from "../../src/domain/auth.ts";

const FEDERATED_ONLY = "Your organization signs in through its identity provider.";
const MINUTES_15 = 900;
const wrongCredentials = () => new ApiError(401, [{ field: "password", message: WRONG_CREDENTIALS }]);

/** The sign-in card's three steps and sign-out (form-encoded, account host). */
export function gatewayRoutes(deps: Deps) {
  const { db, config, now } = deps;
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, config.trustProxy);
  return new Hono()
    .post(checkEmail.path, guard(checkEmail, deps), async (c) => {
      const { emailAddress } = await inputOf(c, checkEmail);
      const t = now();
      await consume(db, { key: `check-email:${ip(c)}`, max: 60, windowSeconds: 600 }, t, "emailAddress");
      const user = await findUserByEmail(db, emailAddress);
      const samlConfigName = user ? await samlConfigOf(db, user) : null;
      const mfaRequired = !!user?.totpSecret && !(await isRememberedBrowser(c, db, user.id, t));
      return reply(c, checkEmail, { samlConfigName, mfaRequired });
    })
    .post(submitPassword.path, guard(submitPassword, deps), async (c) => {
      const form = await inputOf(c, submitPassword);
      // A sign-in storm's overflow is turned away before it costs a rate-limit write or a
      // lookup (and before it counts against the visitor's address): nothing was tried.
      if (hashQueueFull()) throw new ApiError(429, [{ field: "password", message: HASH_BUSY }]);
      const t = now();
      await consume(db, { key: `signin-ip:${ip(c)}`, max: 100, windowSeconds: MINUTES_15 }, t, "password");
      // Counted as a failure before the hash and given back on success, so parallel guesses
      // cannot all pass the check before any of them is counted.
      const slot = await reserve(db, passwordFailures(form.emailAddress), t, "password");
      const user = await findUserByEmail(db, form.emailAddress);
      // Unknown addresses and people without a password pay for a hash too.
      const ok = await runCounted(db, slot, () => verifyOrDummy(form.password, user?.passwordHash));
      if (!user || !ok) {
        await signInEvent(deps, "session.signin.failed", { user, typed: form.emailAddress });
        throw wrongCredentials();
      }
      await release(db, slot);
      if (await samlConfigOf(db, user))
        throw new ApiError(403, [{ field: "emailAddress", message: FEDERATED_ONLY }]);
      const checked = user.passwordHash;
      // Compare-and-set: a password reset in between keeps its new password.
      if (checked)
        await strengthenIfWeaker(checked, form.password, (h) =>
          strengthenPasswordHash(db, user.id, checked, h),
        );
      // A reset since the password was read makes this sign-in start nothing (sessions.ts).
      const version = user.credentialVersion;
      if (user.totpSecret && !(await isRememberedBrowser(c, db, user.id, t))) {
        if (!(await startBrowserChallenge(c, db, user.id, version, t))) throw wrongCredentials();
        return reply(c, submitPassword, { mfaRequired: true });
      }
      if (!(await signedIn(deps, user, (tx) => signInBrowser(c, tx, user.id, t, version))))
        throw wrongCredentials();
      return reply(c, submitPassword, { mfaRequired: false });
    })
    .post(verifyOtp.path, guard(verifyOtp, deps), async (c) => {
      const form = await inputOf(c, verifyOtp);
      const t = now();
      const challenge = await browserChallenge(c, db, t);
      if (!challenge) throw new ApiError(401, [{ field: "otp", message: CHALLENGE_EXPIRED }]);
      const slot = await reserve(db, codeFailures(challenge.userId), t, "otp");
      const user = await findUser(db, challenge.userId);
      const step = user?.totpSecret ? await matchTotp(user.totpSecret, form.otp, t, user.totpLastStep) : null;
      // Claim the step atomically: a code works once even when two requests race.
      const claimed = step !== null && (await claimTotpStep(db, challenge.userId, step));
      if (!claimed) {
        await signInEvent(deps, "session.otp.failed", { user });
        throw new ApiError(401, [{ field: "otp", message: WRONG_OTP }]);
      }
      await release(db, slot);
      await endBrowserChallenge(c, db, challenge.idHash);
      // The version read with the challenge: a reset since then ends this sign-in here.
      const started = user
        ? await signedIn(deps, user, (tx) =>
            signInBrowser(c, tx, challenge.userId, t, challenge.credentialVersion),
          )
        : false;
      if (!started) throw new ApiError(401, [{ field: "otp", message: CHALLENGE_EXPIRED }]);
      if (form.remember === "1")
        await rememberBrowser(c, db, challenge.userId, challenge.credentialVersion, t);
      return reply(c, verifyOtp, {});
    })
    .post(logout.path, guard(logout, deps), async (c) => {
      const userId = await signOutBrowser(c, db);
      if (userId !== null) await signInEvent(deps, "session.signout", { user: await findUser(db, userId) });
      return reply(c, logout, {});
    });
}
