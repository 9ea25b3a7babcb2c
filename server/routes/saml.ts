import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Deps } from "../deps.ts";
import {
  claimAssertion,
  findSamlConfig,
  identityOf,
  inResponseToOf,
  issueTicket,
  newRequestId,
  provisionFederatedUser,
  refusalKind,
  serviceProvider,
  takeTicket,
} from "../services/saml.ts";
import { cookieOptions, startSession } from "../services/sessions.ts";
import { safeNextPath, type SamlRefusal } from "../../src/domain/auth.ts";

/** Which sign-in this browser started: the AuthnRequest id, for ten minutes. */
const STARTED_COOKIE = "portal_saml";

/**
 * SAML 2.0 sign-in (account host), in three legs:
 * - /login/{configName} sends the browser to the identity provider with a request id that is
 *   remembered in the database and in a cookie of this browser;
 * - /acs/{configName} receives the provider's cross-site POST (which carries no SameSite=Lax
 *   cookie), verifies it and leaves a short-lived ticket;
 * - /complete, a same-site GET that does carry the cookie, signs in only the browser that
 *   started this sign-in, so nobody can sign a victim into the attacker's account.
 * Refusals go back to /gateway, which shows the message for the code.
 */
export function samlRoutes({ db, config, now }: Deps) {
  const accountBase = (c: Context) => config.origins.account || new URL(c.req.url).origin;
  const refuse = (c: Context, code: SamlRefusal, detail?: unknown) => {
    if (detail)
      console.warn(
        JSON.stringify({ level: "warn", requestId: c.get("requestId"), saml: code, detail: String(detail) }),
      );
    return c.redirect(`${accountBase(c)}/gateway?saml=${code}`, 303);
  };
  return new Hono()
    .get("/login/:name", async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return refuse(c, "unknown");
      const requestId = newRequestId();
      const sp = serviceProvider(db, found, accountBase(c), requestId);
      const url = await sp.getAuthorizeUrlAsync(safeNextPath(c.req.query("next")), undefined, {});
      setCookie(c, STARTED_COOKIE, requestId, { ...cookieOptions(c, 600), path: "/auth/saml" });
      return c.redirect(url, 302);
    })
    .get("/metadata/:name", async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return c.text("Not found.", 404);
      const xml = serviceProvider(db, found, accountBase(c)).generateServiceProviderMetadata(null);
      return c.body(xml, 200, { "Content-Type": "application/samlmetadata+xml" });
    })
    .post("/acs/:name", async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return refuse(c, "unknown");
      let body: Record<string, unknown>;
      try {
        body = await c.req.parseBody();
      } catch (e) {
        return refuse(c, "unverified", e);
      }
      const samlResponse = typeof body.SAMLResponse === "string" ? body.SAMLResponse : "";
      if (!samlResponse) return refuse(c, "unverified", "no SAMLResponse");
      let profile;
      try {
        ({ profile } = await serviceProvider(db, found, accountBase(c)).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        }));
      } catch (e) {
        return refuse(c, refusalKind(e), e);
      }
      // node-saml checks the issuer of logout messages only; a sign-in must come from ours.
      if (profile?.issuer !== found.issuer) return refuse(c, "unverified", `issuer ${profile?.issuer}`);
      const who = identityOf(profile);
      if (!who) return refuse(c, "no-email", "no email in the assertion");
      const requestId = inResponseToOf(profile);
      const t = now();
      if (!requestId || !who.assertionId || !(await claimAssertion(db, who.assertionId, t)))
        return refuse(c, "expired", `assertion ${who.assertionId} seen before`);
      const { assertionId: _, ...identity } = who;
      const ticket = await issueTicket(
        db,
        {
          configName: found.name,
          requestId,
          next: safeNextPath(typeof body.RelayState === "string" ? body.RelayState : null),
          identity,
        },
        t,
      );
      return c.redirect(`${accountBase(c)}/auth/saml/complete?ticket=${ticket}`, 303);
    })
    .get("/complete", async (c) => {
      const t = now();
      const ticket = await takeTicket(db, c.req.query("ticket") ?? "", t);
      if (!ticket) return refuse(c, "expired", "unknown or used ticket");
      const started = getCookie(c, STARTED_COOKIE);
      deleteCookie(c, STARTED_COOKIE, { path: "/auth/saml" });
      if (started !== ticket.requestId) return refuse(c, "elsewhere", "the sign-in began in another browser");
      const found = await findSamlConfig(db, ticket.configName);
      if (!found) return refuse(c, "unknown");
      const userId = await provisionFederatedUser(db, found, ticket.identity, t);
      await startSession(c, db, userId, t);
      return c.redirect(`${config.origins.web}${ticket.next}`, 303);
    });
}
