import { expect, test } from "./fixtures.ts";
import type { RunningIdp } from "../support/samlIdp.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { hydrated } from "./helpers.ts";
import { startOwnPortal, type OwnPortal } from "./ownPortal.ts";

// A portal of its own (port 4414) whose Northwind subscription an operator connected, with
// `npm run saml`, to an identity provider this test stands up with its own keys.
const PORTAL = "http://127.0.0.1:4414";
const OWNER = "owner@northwind.example.com";
const shot = (name: string) => `test-results/screens/saml-${name}.png`;

test.describe.configure({ mode: "serial" });

let portal: OwnPortal | undefined;
let idp: RunningIdp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  portal = await startOwnPortal(4414, { federatedNorthwind: true });
  idp = portal.idp!;
});

// Waits for the port to be free again (a retry or repeat starts this portal anew).
test.afterAll(async () => portal?.stop());

/** From the sign-in card to the provider's own sign-in form. */
async function toProvider(page: import("@playwright/test").Page) {
  await page.goto(`${PORTAL}/gateway`);
  await hydrated(page);
  await page.getByLabel("Email").fill(OWNER);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Test IdP" })).toBeVisible();
  await page.getByLabel("Email").fill(OWNER);
  await page.screenshot({ path: shot("1-provider") });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Signed in at the Test IdP" })).toBeVisible();
}

test("signs in through the subscription's identity provider", async ({ page }) => {
  idp.tamper = undefined;
  await toProvider(page);
  await page.getByRole("button", { name: "Continue to the portal" }).click();
  await expect(page).toHaveURL(`${PORTAL}/user/welcome`);
  await expect(page.getByText(/Northwind Cold Storage · /)).toBeVisible();
  await page.screenshot({ path: shot("2-welcome") });
  // The browser came back signed in: the session call now answers for this person.
  const session = await page.evaluate(() => fetch("/api/v1/session").then((r) => r.json()));
  expect(session.data.sessionInformation.email).toBe(OWNER);
});

test("refuses an assertion changed after the provider signed it", async ({ page }) => {
  idp.tamper = "email";
  await toProvider(page);
  await page.getByRole("button", { name: "Continue to the portal" }).click();
  await expect(page).toHaveURL(`${PORTAL}/gateway?saml=unverified`);
  await expect(page.getByRole("alert")).toHaveText(
    "Your identity provider's response could not be verified, so you were not signed in.",
  );
  await expect(page.getByRole("heading", { level: 1, name: "Account Login" })).toBeVisible();
  await page.screenshot({ path: shot("3-refused") });
  const status = await page.evaluate(() => fetch("/api/v1/session").then((r) => r.status));
  expect(status).toBe(401);
});

test("refuses the same response posted a second time", async ({ page }) => {
  idp.tamper = undefined;
  await toProvider(page);
  const fields = {
    SAMLResponse: await page.locator("[name=SAMLResponse]").inputValue(),
    RelayState: await page.locator("[name=RelayState]").inputValue(),
  };
  await page.getByRole("button", { name: "Continue to the portal" }).click();
  await expect(page).toHaveURL(`${PORTAL}/user/welcome`);
  // Let the home page finish loading and leave it, so that nothing of it runs on.
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
  await page.goto("about:blank");
  await page.context().clearCookies();
  // An attacker who captured the response posts it again from a page of their own.
  await page.setContent(
    `<form method="post" action="${PORTAL}/auth/saml/acs/northwind">` +
      `<input type="hidden" name="SAMLResponse"><input type="hidden" name="RelayState"><button>Post</button></form>`,
  );
  await page
    .locator("[name=SAMLResponse]")
    .evaluate((el, v) => ((el as HTMLInputElement).value = v), fields.SAMLResponse);
  await page
    .locator("[name=RelayState]")
    .evaluate((el, v) => ((el as HTMLInputElement).value = v), fields.RelayState);
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page).toHaveURL(`${PORTAL}/gateway?saml=expired`);
  await expect(page.getByRole("alert")).toHaveText(
    "That sign-in response has expired or was already used. Please sign in again.",
  );
});

test("sends a federated address that registers from an order to its identity provider", async ({ page }) => {
  idp.tamper = undefined;
  await page.goto(`${PORTAL}/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
  await hydrated(page);
  const register = page.getByRole("form", { name: "Submit Payment" });
  await register.getByLabel("Email").fill(OWNER);
  await register.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("heading", { name: "Test IdP" })).toBeVisible();
  await page.getByLabel("Email").fill(OWNER);
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Continue to the portal" }).click();
  // Back on the order page, now signed in. The order is Acme's and this person belongs to
  // Northwind, so the page stays public (only a member is sent to the signed-in page).
  await page.waitForURL(`${PORTAL}/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
  await expect(page.locator("#order-card")).not.toHaveAttribute("aria-busy", "true");
  await expect(page).toHaveURL(`${PORTAL}/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
});

test("does not complete in a browser that did not start the sign-in (login CSRF)", async ({ page }) => {
  idp.tamper = undefined;
  // The attacker walks the whole round trip for their own account, outside any browser...
  const login = await fetch(`${PORTAL}/auth/saml/login/northwind`, { redirect: "manual" });
  const atIdp = new URL(login.headers.get("location")!);
  atIdp.searchParams.set("as", "attacker@northwind.example.com");
  const form = await (await fetch(atIdp)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)![1]!;
  const acs = await fetch(`${PORTAL}/auth/saml/acs/northwind`, {
    method: "POST",
    body: new URLSearchParams({ SAMLResponse: field("SAMLResponse"), RelayState: field("RelayState") }),
    redirect: "manual",
  });
  const complete = acs.headers.get("location")!;
  expect(complete).toContain("/auth/saml/complete?ticket=");
  // ...and lures the victim's browser to the last step.
  await page.goto(complete);
  await expect(page).toHaveURL(`${PORTAL}/gateway?saml=elsewhere`);
  await expect(page.getByRole("alert")).toHaveText(
    "This sign-in was not started in this browser, so it was not completed. Please sign in again.",
  );
  const status = await page.evaluate(() => fetch("/api/v1/session").then((r) => r.status));
  expect(status).toBe(401);
});
