import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { setPasswordFromLink } from "../data/passwordReset.ts";
import { clear, passwordFailures } from "../data/rateLimits.ts";
import { peekToken } from "../data/tokens.ts";
import { samlConfigOf } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { signInBrowser } from "../http/cookies.ts";
import { errorResponse } from "../http/errors.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited } from "../flows/audited.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { hashPassword } from "../services/passwords.ts";
import { checkResetToken, resetPassword } from "../../src/api/gateway.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";

/** Forgotten passwords, step two: the emailed link's token sets a new password. */
export function passwordResetRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .get(checkResetToken.path, guard(checkResetToken, deps), async (c) => {
      const { token } = await inputOf(c, checkResetToken);
      if (!(await peekToken(db, token, "reset", now())))
        return errorResponse(c, 400, [{ field: "token", message: LINK_INVALID }]);
      return reply(c, checkResetToken, {});
    })
    .post(resetPassword.path, guard(resetPassword, deps), async (c) => {
      const form = await inputOf(c, resetPassword);
      const t = now();
      const invalid = new ApiError(400, [{ field: "token", message: LINK_INVALID }]);
      // Look before hashing (no hash for a made-up token); take only once the hash is ready,
      // so a busy server does not burn the link.
      if (!(await peekToken(db, form.token, "reset", t))) throw invalid;
      const hashed = await hashPassword(form.password);
      // The new password and its row commit together (the password itself is never recorded).
      const user = await audited(
        deps,
        (tx) => setPasswordFromLink(tx, form.token, hashed, t),
        (changed) =>
          changed && {
            subscriptionId: changed.activeSubscriptionId,
            actor: { kind: "user", id: changed.id, label: changed.email },
            action: "user.password.reset",
            entityType: EntityType.USER,
            entityId: changed.id,
            always: true,
          },
      );
      if (!user) throw invalid;
      await clear(db, passwordFailures(user.email));
      // The mailbox alone is one factor: a person with codes on signs in again, code and all.
      const mfaRequired = user.totpSecret !== null;
      // Not signed in when another reset came between (the version moved on), nor when the
      // person's organization signs in through its identity provider: a mailbox is not it.
      const signedIn =
        !mfaRequired &&
        !(await samlConfigOf(db, user)) &&
        (await signInBrowser(c, db, user.id, t, user.credentialVersion));
      return reply(c, resetPassword, { signedIn, mfaRequired });
    });
}
