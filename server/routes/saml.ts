import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import {
  claimAssertion,
  findSamlConfig,
  issueTicket,
  samlRequestIds,
  type SamlConfigRow,
} from "../data/saml.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cookieOptions } from "../http/cookies.ts";
import { accountBase, refuseSignIn, SAML_STARTED_COOKIE } from "../http/saml.ts";
import {
  identityOf,
  inResponseToOf,
  newRequestId,
  refusalKind,
  serviceProvider,
} from "../services/samlProvider.ts";
import { safeNextPath } from "../../src/domain/auth.ts";

const LOGIN = { method: "get", path: "/auth/saml/login/:name" } as const;
const METADATA = { method: "get", path: "/auth/saml/metadata/:name" } as const;
const ACS = { method: "post", path: "/auth/saml/acs/:name" } as const;

/**
 * SAML 2.0 sign-in (account host), the two legs at the identity provider's side:
 * - /login/{configName} sends the browser to the identity provider with a request id that is
 *   remembered in the database and in a cookie of this browser;
 * - /acs/{configName} receives the provider's cross-site POST (which carries no SameSite=Lax
 *   cookie), verifies it and leaves a short-lived ticket for /auth/saml/complete
 *   (routes/samlComplete.ts), which signs in only the browser that started this sign-in.
 * Refusals go back to /gateway, which shows the message for the code.
 */
export function samlRoutes(deps: Deps) {
  const { db, config, now } = deps;
  const sp = (c: Context, found: SamlConfigRow, requestId?: string) =>
    serviceProvider(found, accountBase(c, config), samlRequestIds(db), requestId);
  return new Hono()
    .get(LOGIN.path, guard(LOGIN, deps), async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return refuseSignIn(c, config, "unknown");
      const requestId = newRequestId();
      const url = await sp(c, found, requestId).getAuthorizeUrlAsync(
        safeNextPath(c.req.query("next")),
        undefined,
        {},
      );
      setCookie(c, SAML_STARTED_COOKIE, requestId, { ...cookieOptions(c, 600), path: "/auth/saml" });
      return c.redirect(url, 302);
    })
    .get(METADATA.path, guard(METADATA, deps), async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return c.text("Not found.", 404);
      const xml = sp(c, found).generateServiceProviderMetadata(null);
      return c.body(xml, 200, { "Content-Type": "application/samlmetadata+xml" });
    })
    .post(ACS.path, guard(ACS, deps), async (c) => {
      const found = await findSamlConfig(db, c.req.param("name"));
      if (!found) return refuseSignIn(c, config, "unknown");
      let body: Record<string, unknown>;
      try {
        body = await c.req.parseBody();
      } catch (e) {
        return refuseSignIn(c, config, "unverified", e);
      }
      const samlResponse = typeof body.SAMLResponse === "string" ? body.SAMLResponse : "";
      if (!samlResponse) return refuseSignIn(c, config, "unverified", "no SAMLResponse");
      let profile;
      try {
        ({ profile } = await sp(c, found).validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (e) {
        return refuseSignIn(c, config, refusalKind(e), e);
      }
      // node-saml checks the issuer of logout messages only; a sign-in must come from ours.
      if (profile?.issuer !== found.issuer)
        return refuseSignIn(c, config, "unverified", `issuer ${profile?.issuer}`);
      const who = identityOf(profile);
      if (!who) return refuseSignIn(c, config, "no-email", "no email in the assertion");
      const requestId = inResponseToOf(profile);
      const t = now();
      if (!requestId || !who.assertionId || !(await claimAssertion(db, who.assertionId, t)))
        return refuseSignIn(c, config, "expired", `assertion ${who.assertionId} seen before`);
      const { assertionId: _, ...identity } = who;
      const relayState = typeof body.RelayState === "string" ? body.RelayState : null;
      const ticket = await issueTicket(
        db,
        { configName: found.name, requestId, next: safeNextPath(relayState), identity },
        t,
      );
      return c.redirect(`${accountBase(c, config)}/auth/saml/complete?ticket=${ticket}`, 303);
    });
}
