import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { subscriptions, userAssignments, users } from "../../server/db/schema/index.ts";
import { saveSamlConfig } from "../../server/data/saml.ts";
import { issueToken } from "../../server/data/tokens.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { Role } from "../../src/domain/roles.ts";
import { makeIdpKeys, readAuthnRequest, samlResponse, IDP_ISSUER, type IdpKeys } from "../support/samlIdp.ts";
import { browser, type Browser } from "./client.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

const ENTRY_POINT = "https://idp.test.example/sso";
const ACS = "http://localhost/auth/saml/acs/northwind";
const AUDIENCE = "http://localhost/auth/saml/metadata/northwind";
const OWNER = "owner@northwind.example.com";

describe("SAML sign-in", () => {
  const ctx = useTestApp({ seeded: true });
  let keys: IdpKeys;
  let otherKeys: IdpKeys;
  beforeAll(() => {
    keys = makeIdpKeys();
    otherKeys = makeIdpKeys();
  });
  beforeEach(async () => {
    const [northwind] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.name, "Northwind Cold Storage"));
    await saveSamlConfig(ctx.database.db, {
      name: "northwind",
      subscriptionId: northwind!.id,
      entryPoint: ENTRY_POINT,
      issuer: IDP_ISSUER,
      idpCert: keys.cert,
    });
  });

  /** Starts a sign-in at the portal and returns the request id the provider must answer. */
  async function startAt(b: Browser, next = "/user/welcome") {
    const res = await b.get(`/auth/saml/login/northwind?next=${encodeURIComponent(next)}`);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith(`${ENTRY_POINT}?SAMLRequest=`)).toBe(true);
    return readAuthnRequest(location);
  }
  /** The provider's POST, sent from the provider's own site as a browser would. */
  const post = (b: Browser, SAMLResponse: string, RelayState = "/user/welcome") =>
    b.form("/auth/saml/acs/northwind", { SAMLResponse, RelayState });
  /** The POST and then the same-site leg that completes it, as the browser follows the 303. */
  async function postAndFollow(b: Browser, SAMLResponse: string, RelayState = "/user/welcome") {
    const res = await post(b, SAMLResponse, RelayState);
    const location = res.headers.get("location")!;
    if (!location.startsWith("http://localhost/auth/saml/complete?ticket=")) return res;
    return b.get(location.slice("http://localhost".length));
  }
  const idpBrowser = () => browser(ctx.app, "http://localhost");
  const answer = (inResponseTo: string, extra: Partial<Parameters<typeof samlResponse>[0]> = {}) =>
    samlResponse({ keys, inResponseTo, acsUrl: ACS, audience: AUDIENCE, email: OWNER, ...extra });
  const refusal = (res: Response) =>
    new URL(res.headers.get("location")!, "http://x").searchParams.get("saml");

  it("sends the browser to the identity provider with the ACS address and the next page", async () => {
    const request = await startAt(idpBrowser(), "/s/settings");
    expect(request.id).toMatch(/^_/);
    expect(request.acsUrl).toBe(ACS);
    expect(request.relayState).toBe("/s/settings");
  });

  it("signs in a verified person, with a new session id, and continues to the next page", async () => {
    const b = idpBrowser();
    const { id } = await startAt(b);
    expect(b.jar.get("portal_saml")).toBe(id);
    b.jar.set("portal_sid", "planted-by-someone-else");
    const res = await postAndFollow(b, answer(id), "/s/settings");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/s/settings");
    expect(b.jar.get("portal_sid")).not.toBe("planted-by-someone-else");
    const session = (await (await b.get("/api/v1/session")).json()).data.sessionInformation;
    expect(session.email).toBe(OWNER);
    expect(session.activeSubscription.name).toBe("Northwind Cold Storage");
    expect(session.activeSubscription.samlEnabled).toBe(true);
  });

  it("refuses a replayed response", async () => {
    const b = idpBrowser();
    const { id } = await startAt(b);
    const response = answer(id);
    expect((await postAndFollow(b, response)).headers.get("location")).toBe("/user/welcome");
    const replay = idpBrowser();
    const res = await post(replay, response);
    expect(res.status).toBe(303);
    expect(refusal(res)).toBe("expired");
    expect(replay.jar.has("portal_sid")).toBe(false);
  });

  it("signs in once when the same response is posted twice at the same moment", async () => {
    const { id } = await startAt(idpBrowser());
    const response = answer(id);
    const results = await Promise.all([post(idpBrowser(), response), post(idpBrowser(), response)]);
    const tickets = results.filter((r) => r.headers.get("location")!.includes("/auth/saml/complete?ticket="));
    expect(tickets).toHaveLength(1);
  });

  it("refuses a response to a request the portal never made", async () => {
    const res = await post(idpBrowser(), answer("_never-issued"));
    expect(refusal(res)).toBe("expired");
  });

  for (const [name, extra, expected] of [
    ["an assertion changed after signing", { tamper: "email" }, "unverified"],
    ["an unsigned assertion", { tamper: "unsign" }, "unverified"],
    ["an assertion for another audience", { audience: "https://elsewhere.example/sp" }, "unverified"],
    ["an assertion from another issuer", { issuer: "https://other-idp.example" }, "unverified"],
    ["an expired assertion", { offsetMs: -3_600_000 }, "expired"],
    ["an assertion not valid yet", { offsetMs: 3_600_000 }, "expired"],
  ] as const) {
    it(`refuses ${name} and signs nobody in`, async () => {
      const b = idpBrowser();
      const { id } = await startAt(b);
      const res = await post(b, answer(id, extra));
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`http://localhost/gateway?saml=${expected}`);
      expect(b.jar.has("portal_sid")).toBe(false);
    });
  }

  it("refuses an assertion signed with a key the subscription does not trust", async () => {
    const b = idpBrowser();
    const { id } = await startAt(b);
    const res = await post(
      b,
      samlResponse({ keys: otherKeys, inResponseTo: id, acsUrl: ACS, audience: AUDIENCE, email: OWNER }),
    );
    expect(refusal(res)).toBe("unverified");
  });

  it("refuses a post without a response, and an unknown configuration", async () => {
    expect(refusal(await idpBrowser().form("/auth/saml/acs/northwind", {}))).toBe("unverified");
    expect(refusal(await idpBrowser().form("/auth/saml/acs/northwind", { SAMLResponse: "%%%" }))).toBe(
      "unverified",
    );
    expect(refusal(await idpBrowser().get("/auth/saml/login/nobody"))).toBe("unknown");
  });

  it("creates a first-time person in the subscription, with the role the provider asserts", async () => {
    const b = idpBrowser();
    const { id } = await startAt(b);
    await postAndFollow(
      b,
      answer(id, { email: "Kim@Northwind.example.com", attributes: { portalRole: "MANAGER" } }),
    );
    const [kim] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, "kim@northwind.example.com"));
    expect(kim?.passwordHash).toBeNull();
    const [assignment] = await ctx.database.db
      .select()
      .from(userAssignments)
      .where(eq(userAssignments.userId, kim!.id));
    expect(assignment?.roleId).toBe(Role.MANAGER);
    const session = (await (await b.get("/api/v1/session")).json()).data.sessionInformation;
    expect(session.activeSubscription.role.id).toBe(Role.MANAGER);
  });

  it("sends federated addresses to their provider and refuses their passwords", async () => {
    const check = await idpBrowser().form("/gateway/check-email", { emailAddress: OWNER });
    expect((await check.json()).data.samlConfigName).toBe("northwind");
    const submit = await idpBrowser().form("/gateway/submit", {
      emailAddress: OWNER,
      password: "demo-password-1",
    });
    expect(submit.status).toBe(403);
  });

  it("sets a federated person's new password from a reset link without signing them in", async () => {
    const { id } = (await ctx.database.db.select().from(users).where(eq(users.email, OWNER)))[0]!;
    const token = await issueToken(
      ctx.database.db,
      { purpose: "reset", email: OWNER, userId: id, hours: 1 },
      TEST_NOW,
    );
    const b = idpBrowser();
    const res = await b.form("/gateway/reset-password", { token, password: "brand-new-password" });
    expect((await res.json()).data).toEqual({ signedIn: false, mfaRequired: false });
    expect(b.jar.has(SESSION_COOKIE)).toBe(false);
    expect((await b.get("/api/v1/session")).status).toBe(401);
  });

  it("publishes service-provider metadata for the provider's administrator", async () => {
    const res = await idpBrowser().get("/auth/saml/metadata/northwind");
    expect(res.headers.get("content-type")).toContain("samlmetadata+xml");
    const xml = await res.text();
    expect(xml).toContain(`entityID="${AUDIENCE}"`);
    expect(xml).toContain(`Location="${ACS}"`);
  });

  it("accepts the provider's cross-site POST but still refuses other cross-site forms", async () => {
    const { id } = await startAt(idpBrowser());
    const fromIdp = (path: string, fields: Record<string, string>) =>
      ctx.app.request(`http://localhost${path}`, {
        method: "POST",
        headers: {
          origin: "https://idp.test.example",
          "sec-fetch-site": "cross-site",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
      });
    const res = await fromIdp("/auth/saml/acs/northwind", { SAMLResponse: answer(id), RelayState: "/" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^http:\/\/localhost\/auth\/saml\/complete\?ticket=/);
    expect((await fromIdp("/gateway/logout", {})).status).toBe(403);
  });

  it("completes a sign-in only in the browser that started it (no login CSRF)", async () => {
    // The attacker starts a sign-in and obtains a valid response for their own account...
    const attacker = idpBrowser();
    const { id } = await startAt(attacker);
    const res = await post(attacker, answer(id, { email: "attacker@northwind.example.com" }));
    const complete = res.headers.get("location")!.slice("http://localhost".length);
    // ...and makes the victim's browser follow it: the victim never started this sign-in.
    const victim = idpBrowser();
    await startAt(victim);
    const refused = await victim.get(complete);
    expect(refusal(refused)).toBe("elsewhere");
    expect(victim.jar.has("portal_sid")).toBe(false);
    // The ticket is gone either way.
    expect(refusal(await attacker.get(complete))).toBe("expired");
  });

  it("keeps the started-here cookie httpOnly, SameSite=Lax and on the SAML paths only", async () => {
    const res = await idpBrowser().get("/auth/saml/login/northwind");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("portal_saml="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth\/saml/);
  });
});
