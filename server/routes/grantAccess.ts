import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { addMember, createInvitation, INVITATION_HOURS, recordSubscription } from "../data/grantAccess.ts";
import { consume } from "../data/rateLimits.ts";
import { findUserByEmail } from "../data/users.ts";
import type { Auth } from "../data/auth.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { inputOf } from "../http/input.ts";
import { linkOrigin } from "../http/links.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { accessGrantedMail, invitationMail, type GrantFacts } from "../services/invitationMail.ts";
import { GRANT_ACCESS_MESSAGES, grantAccountAccess } from "../../src/api/grantAccess.ts";
import { ORDER_PREFIX } from "../../src/domain/order.ts";
import { quoteNumber } from "../../src/domain/quote.ts";
import { Role, ROLE_INFO } from "../../src/domain/roles.ts";

/** The form has three short fields. */
const FORM_LIMIT = 4 * 1024;
/** Invitations are mail sent on a caller's word: a subscription sends at most this many an hour. */
const GRANTS_PER_HOUR = 30;

/** The role a grant gives (spec section 6): Billing where advanced roles exist, else Administrator. */
const grantedRole = (auth: Auth) => (auth.subscription.advancedRoles ? Role.BILLING : Role.ADMINISTRATOR);

/**
 * Grant Account Access (spec sections 6 and 7): from a quote or order of the active
 * subscription, an Administrator adds an existing profile at once or mails an invitation that
 * registers the person into the subscription. Links come from the configured origin only.
 */
export function grantAccessRoutes(deps: Deps) {
  const { db, config, now, mailer } = deps;
  return new Hono().post(
    grantAccountAccess.path,
    guard(grantAccountAccess, deps),
    limitBodyTo(FORM_LIMIT),
    async (c) => {
      const { isQuote, resourceId: id, emailAddress: email } = await inputOf(c, grantAccountAccess);
      const resourceId = Number(id);
      const auth = authOf(c);
      const record = await recordSubscription(db, isQuote ? "quote" : "order", resourceId);
      if (!record) throw new ApiError(404, NOT_FOUND);
      inSubscription(auth, record);
      // A federated subscription's people come from its identity provider, never from here.
      if (auth.subscription.samlConfigName) throw new ApiError(403, GRANT_ACCESS_MESSAGES.federated);
      const subscriptionId = auth.subscription.id;
      const limit = { key: `grant-access:${subscriptionId}`, max: GRANTS_PER_HOUR, windowSeconds: 3600 };
      await consume(db, limit, now(), "emailAddress");
      const roleId = grantedRole(auth);
      const facts: GrantFacts = {
        grantedBy: `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email,
        accountName: auth.subscription.name,
        recordNumber: isQuote ? quoteNumber(resourceId) : `${ORDER_PREFIX}${resourceId}`,
        roleName: ROLE_INFO[roleId].displayName,
      };
      const role = roleId === Role.BILLING ? "Billing" : "Administrator";
      const user = await findUserByEmail(db, email);
      if (user) {
        const added = await audited(
          deps,
          (tx) => addMember(tx, user, subscriptionId, roleId, now()),
          (ok) => ({
            ...byUser(auth),
            action: ok ? "member.add" : "member.add.refused",
            entityType: EntityType.USER_ASSIGNMENT,
            entityId: user.id,
            always: true,
            after: { person: email, role: ROLE_INFO[roleId].displayName, record: facts.recordNumber },
          }),
        );
        if (!added)
          throw new ApiError(409, [{ field: "emailAddress", message: GRANT_ACCESS_MESSAGES.alreadyMember }]);
        await mailer.send(accessGrantedMail(email, facts, `${linkOrigin(config)}/`));
        return reply(c, grantAccountAccess, { outcome: "added", emailAddress: email, role });
      }
      const token = await audited(
        deps,
        (tx) => createInvitation(tx, { email, subscriptionId, roleId }, now()),
        {
          ...byUser(auth),
          action: "member.invite",
          entityType: EntityType.PENDING_USER_ASSIGNMENT,
          after: { person: email, role: ROLE_INFO[roleId].displayName, record: facts.recordNumber },
        },
      );
      const link = `${linkOrigin(config)}/user/validate?token=${token}`;
      await mailer.send(invitationMail(email, facts, link, INVITATION_HOURS, now()));
      return reply(c, grantAccountAccess, { outcome: "invited", emailAddress: email, role });
    },
  );
}
