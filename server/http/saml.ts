import type { Context } from "hono";
import type { Config } from "../config.ts";
import type { SamlRefusal } from "../../src/domain/auth.ts";

/** Which sign-in this browser started: the AuthnRequest id, for ten minutes (path /auth/saml). */
export const SAML_STARTED_COOKIE = "portal_saml";

/** The account host's origin: configured, else the one the request came to. */
export const accountBase = (c: Context, config: Config) =>
  config.origins.account || new URL(c.req.url).origin;

/** Sends the browser back to /gateway, which shows the message for the code; the detail goes to the log. */
export function refuseSignIn(c: Context, config: Config, code: SamlRefusal, detail?: unknown) {
  if (detail)
    console.warn(
      JSON.stringify({ level: "warn", requestId: c.get("requestId"), saml: code, detail: String(detail) }),
    );
  return c.redirect(`${accountBase(c, config)}/gateway?saml=${code}`, 303);
}
