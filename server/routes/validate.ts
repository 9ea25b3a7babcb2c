import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { createAccount } from "../data/registration.ts";
import { peekToken, takeToken } from "../data/tokens.ts";
import { findUserByEmail } from "../data/users.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { signInBrowser } from "../http/cookies.ts";
import { errorResponse } from "../http/errors.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { hashPassword } from "../services/passwords.ts";
import { checkValidationToken, validateAccount } from "../../src/api/accounts.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";

/** The emailed registration link: which address it validates, and creating the account with it. */
export function validateRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono()
    .get(checkValidationToken.path, guard(checkValidationToken, deps), async (c) => {
      const { token } = await inputOf(c, checkValidationToken);
      const row = await peekToken(db, token, "register", now());
      if (!row) return errorResponse(c, 400, [{ field: "token", message: LINK_INVALID }]);
      return reply(c, checkValidationToken, { email: row.email });
    })
    .post(validateAccount.path, guard(validateAccount, deps), async (c) => {
      const { token, firstName, lastName, password } = await inputOf(c, validateAccount);
      const t = now();
      const row = await takeToken(db, token, "register", t);
      if (!row || (await findUserByEmail(db, row.email)))
        throw new ApiError(400, [{ field: "token", message: LINK_INVALID }]);
      // Hashed before the account's transaction, so it holds no locks for the ~100 ms.
      const passwordHash = await hashPassword(password);
      const account = { email: row.email, firstName, lastName, passwordHash, referrer: row.referrer };
      const userId = await createAccount(db, account, t);
      await signInBrowser(c, db, userId, t);
      return reply(c, validateAccount, {});
    });
}
