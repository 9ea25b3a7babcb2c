import { Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { findSamlConfig, provisionFederatedUser, takeTicket } from "../data/saml.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { signInBrowser } from "../http/cookies.ts";
import { refuseSignIn, SAML_STARTED_COOKIE } from "../http/saml.ts";

const COMPLETE = { method: "get", path: "/auth/saml/complete" } as const;

/**
 * SAML sign-in, last leg: a same-site GET that carries this browser's cookie collects the
 * ticket /acs left (routes/saml.ts) and signs in only the browser that started the sign-in,
 * so nobody can sign a victim into the attacker's account.
 */
export function samlCompleteRoutes(deps: Deps) {
  const { db, config, now } = deps;
  return new Hono().get(COMPLETE.path, guard(COMPLETE, deps), async (c) => {
    const t = now();
    const ticket = await takeTicket(db, c.req.query("ticket") ?? "", t);
    if (!ticket) return refuseSignIn(c, config, "expired", "unknown or used ticket");
    const started = getCookie(c, SAML_STARTED_COOKIE);
    deleteCookie(c, SAML_STARTED_COOKIE, { path: "/auth/saml" });
    if (started !== ticket.requestId)
      return refuseSignIn(c, config, "elsewhere", "the sign-in began in another browser");
    const found = await findSamlConfig(db, ticket.configName);
    if (!found) return refuseSignIn(c, config, "unknown");
    const userId = await provisionFederatedUser(db, found, ticket.identity, t);
    await signInBrowser(c, db, userId, t);
    // A GET that writes (the browser's old session ends, the person's role may change): the
    // reused session answers go, as after any write.
    deps.answers.clear();
    return c.redirect(`${config.origins.web}${ticket.next}`, 303);
  });
}
