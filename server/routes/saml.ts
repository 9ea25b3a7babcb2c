import { Hono, type Context } from "hono";
import type { AppDeps } from "../app.ts";
import {
  claimAssertion,
  findSamlConfig,
  identityOf,
  provisionFederatedUser,
  refusalKind,
  serviceProvider,
} from "../services/saml.ts";
import { startSession } from "../services/sessions.ts";
import { safeNextPath, type SamlRefusal } from "../../src/domain/auth.ts";

/**
 * SAML 2.0 sign-in (account host): /login/{configName} sends the browser to the identity
 * provider with a signed-request id remembered in the database; /acs/{configName} receives
 * the provider's POST, verifies it and signs the person in. Refusals go back to /gateway,
 * which shows the message for the code.
 */
export function samlRoutes({ db, config, now: clock }: AppDeps) {
  const now = () => clock?.() ?? new Date();
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
      const sp = serviceProvider(db, found, accountBase(c));
      const relayState = safeNextPath(c.req.query("next"));
      return c.redirect(await sp.getAuthorizeUrlAsync(relayState, undefined, {}), 302);
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
      const t = now();
      if (!who.assertionId || !(await claimAssertion(db, who.assertionId, t)))
        return refuse(c, "expired", `assertion ${who.assertionId} seen before`);
      const userId = await provisionFederatedUser(db, found, who, t);
      await startSession(c, db, userId, t);
      const next = safeNextPath(typeof body.RelayState === "string" ? body.RelayState : null);
      return c.redirect(`${config.origins.web}${next}`, 303);
    });
}
