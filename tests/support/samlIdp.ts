import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { SignedXml } from "xml-crypto";

/**
 * A small SAML 2.0 identity provider for tests: its own RSA key and self-signed certificate
 * (made by the openssl CLI), HTTP-Redirect binding in, HTTP-POST binding out, assertions
 * signed with xml-crypto the way real providers sign them.
 */
export interface IdpKeys {
  key: string;
  cert: string;
}

export function makeIdpKeys(): IdpKeys {
  const dir = mkdtempSync(join(tmpdir(), "idp-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test IdP"].concat([
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]),
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const IDP_ISSUER = "https://idp.test.example/metadata";

export interface AssertionInput {
  keys: IdpKeys;
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  email: string;
  issuer?: string;
  attributes?: Record<string, string>;
  /** Shifts every time in the assertion (negative: issued in the past). */
  offsetMs?: number;
  /** What to do after signing: change the asserted email, or strip the signature. */
  tamper?: "email" | "unsign" | undefined;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const id = () => `_${randomBytes(16).toString("hex")}`;

/** A base64 SAMLResponse with one signed assertion about `email`. */
export function samlResponse(a: AssertionInput): string {
  const at = (ms: number) => new Date(Date.now() + (a.offsetMs ?? 0) + ms).toISOString();
  const issuer = a.issuer ?? IDP_ISSUER;
  const assertionId = id();
  const attributes = Object.entries({ email: a.email, ...a.attributes })
    .map(
      ([k, v]) =>
        `<saml:Attribute Name="${esc(k)}"><saml:AttributeValue>${esc(v)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(a.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${esc(a.inResponseTo)}" NotOnOrAfter="${at(300_000)}" Recipient="${esc(a.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at(-30_000)}" NotOnOrAfter="${at(300_000)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${id()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
  const signer = new SignedXml({
    privateKey: a.keys.key,
    publicCert: a.keys.cert,
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: [
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/2001/10/xml-exc-c14n#",
    ],
  });
  signer.computeSignature(assertion, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" },
  });
  let signed = signer.getSignedXml();
  if (a.tamper === "email") signed = signed.replaceAll(esc(a.email), "intruder@example.com");
  if (a.tamper === "unsign") signed = signed.replace(/<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/, "");
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${esc(a.acsUrl)}" InResponseTo="${esc(a.inResponseTo)}">` +
    `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signed +
    `</samlp:Response>`;
  return Buffer.from(response).toString("base64");
}

/** The request id and ACS address inside an HTTP-Redirect binding AuthnRequest URL. */
export function readAuthnRequest(url: string): { id: string; acsUrl: string; relayState: string } {
  const u = new URL(url);
  const xml = inflateRawSync(Buffer.from(u.searchParams.get("SAMLRequest") ?? "", "base64")).toString();
  const attr = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? "";
  return {
    id: attr("ID"),
    acsUrl: attr("AssertionConsumerServiceURL"),
    relayState: u.searchParams.get("RelayState") ?? "",
  };
}

export interface RunningIdp {
  url: string;
  /** What the next sign-in does after signing (see AssertionInput.tamper). */
  tamper: AssertionInput["tamper"] | undefined;
  close(): Promise<void>;
}

/**
 * Serves /sso: shows who will be signed in (the email typed at the provider, or `email`
 * from the query) and a Continue button that posts the signed response to the portal.
 */
export async function startIdp(keys: IdpKeys, audience: (acsUrl: string) => string): Promise<RunningIdp> {
  const state: RunningIdp = { url: "", tamper: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const full = `http://127.0.0.1${req.url}`;
    const url = new URL(full);
    if (url.pathname !== "/sso") return void res.writeHead(404).end();
    const request = readAuthnRequest(full);
    const email = url.searchParams.get("login_hint") ?? url.searchParams.get("as");
    if (!email) {
      // The provider's own sign-in form: the person says who they are.
      const hidden = [...url.searchParams].map(
        ([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`,
      );
      return void res
        .writeHead(200, { "Content-Type": "text/html" })
        .end(
          `<!doctype html><title>Test IdP</title><h1>Test IdP</h1><form method="get" action="/sso">${hidden.join("")}` +
            `<label>Email <input name="as" type="email"></label><button>Sign in</button></form>`,
        );
    }
    const response = samlResponse({
      keys,
      inResponseTo: request.id,
      acsUrl: request.acsUrl,
      audience: audience(request.acsUrl),
      email,
      tamper: state.tamper,
    });
    res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(
        `<!doctype html><title>Test IdP</title><h1>Signed in at the Test IdP</h1>` +
          `<form method="post" action="${esc(request.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${response}">` +
          `<input type="hidden" name="RelayState" value="${esc(request.relayState)}">` +
          `<button>Continue to the portal</button></form>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  state.url = `http://127.0.0.1:${port}/sso`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
