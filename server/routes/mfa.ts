import { Hono, type MiddlewareHandler } from "hono";
import QRCode from "qrcode";
import { sha256 } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import { disableTotp, enableTotp, setPendingSecret } from "../data/mfa.ts";
import {
  consume,
  passwordChecks,
  passwordFailures,
  release,
  reserve,
  runCounted,
} from "../data/rateLimits.ts";
import { countRemembered, revokeRemembered } from "../data/rememberedDevices.ts";
import type { User } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf } from "../http/auth.ts";
import { sessionToken } from "../http/cookies.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { asOwner } from "../services/hashQueue.ts";
import { verifyPassword } from "../services/passwords.ts";
import { matchTotp, newTotpSecret, totpUri } from "../services/totp.ts";
import {
  disableMfa,
  enableMfa,
  forgetRememberedDevices,
  getMfa,
  startMfaSetup,
} from "../../src/api/accounts.ts";
import { WRONG_OTP } from "../../src/domain/auth.ts";

const INCORRECT_PASSWORD = "Incorrect password.";

/**
 * One password check per session at a time, refused before any database work (even the
 * session lookup of guard), so a flood from one stolen session costs nothing.
 */
const oneCheckPerSession: MiddlewareHandler = async (c, next) => {
  // The same reader as the session lookup: with two session cookies, another reader could key
  // the lock on a junk one while the lookup signs in with the real one.
  const token = sessionToken(c);
  await (token ? asOwner(`session:${sha256(token)}`, next) : next());
};

/** Turning the one-time code on (QR code, confirmed by a first code) and off again. */
export function mfaRoutes(deps: Deps) {
  const { db, now } = deps;
  /**
   * A stolen session must not be a free password oracle: wrong passwords count against the
   * same limit as sign-in (counted before the hash, given back when right), and the person
   * has one hash running at a time.
   */
  const checkPassword = async (user: User, password: string) => {
    if (!user.passwordHash) throw new ApiError(400, [{ field: "password", message: INCORRECT_PASSWORD }]);
    await consume(db, passwordChecks(user.id), now(), "password");
    const slot = await reserve(db, passwordFailures(user.email), now(), "password");
    const stored = user.passwordHash;
    const ok = await runCounted(db, slot, () =>
      verifyPassword(password, stored, { owner: `user:${user.id}` }),
    );
    if (!ok) throw new ApiError(400, [{ field: "password", message: INCORRECT_PASSWORD }]);
    await release(db, slot);
  };
  return new Hono()
    .get(getMfa.path, guard(getMfa, deps), async (c) => {
      const { user } = authOf(c);
      return reply(c, getMfa, {
        enabled: user.totpSecret !== null,
        rememberedDevices: await countRemembered(db, user.id, now()),
      });
    })
    .post(startMfaSetup.path, guard(startMfaSetup, deps), async (c) => {
      const { user } = authOf(c);
      if (user.totpSecret) throw new ApiError(409, "The one-time passcode is already on.");
      const secret = newTotpSecret();
      await setPendingSecret(db, user.id, secret);
      const uri = totpUri(secret, user.email);
      const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1 });
      return reply(c, startMfaSetup, { secret, otpauthUri: uri, qrSvg });
    })
    .post(enableMfa.path, guard(enableMfa, deps), async (c) => {
      const { code } = await inputOf(c, enableMfa);
      const { user } = authOf(c);
      if (!user.totpPendingSecret) throw new ApiError(409, "Start the setup first.");
      const step = await matchTotp(user.totpPendingSecret, code, now(), null);
      if (step === null) throw new ApiError(400, [{ field: "code", message: WRONG_OTP }]);
      const pending = user.totpPendingSecret;
      await audited(deps, (tx) => enableTotp(tx, user.id, pending, step), {
        ...byUser(authOf(c)),
        action: "user.otp.on",
        entityType: EntityType.USER,
        entityId: user.id,
        before: { oneTimePasscode: "off" },
        after: { oneTimePasscode: "on" },
      });
      return reply(c, enableMfa, { enabled: true });
    })
    .post(disableMfa.path, oneCheckPerSession, guard(disableMfa, deps), async (c) => {
      const { password } = await inputOf(c, disableMfa);
      const { user } = authOf(c);
      // Nothing to turn off: no password is checked (each check is a costly hash).
      if (!user.totpSecret) throw new ApiError(409, "The one-time passcode is already off.");
      await checkPassword(user, password);
      await audited(deps, (tx) => disableTotp(tx, user.id, now()), {
        ...byUser(authOf(c)),
        action: "user.otp.off",
        entityType: EntityType.USER,
        entityId: user.id,
        before: { oneTimePasscode: "on" },
        after: { oneTimePasscode: "off" },
      });
      return reply(c, disableMfa, { enabled: false });
    })
    .delete(forgetRememberedDevices.path, guard(forgetRememberedDevices, deps), async (c) => {
      await audited(deps, (tx) => revokeRemembered(tx, authOf(c).user.id, now()), {
        ...byUser(authOf(c)),
        action: "user.remembered.forget",
        entityType: EntityType.USER,
        entityId: authOf(c).user.id,
        always: true,
      });
      return reply(c, forgetRememberedDevices, { rememberedDevices: 0 });
    });
}
