import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { totpAt } from "../../server/services/totp.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { hydrated, linkFromMailbox, PASSWORD, signInWithKeyboard } from "./helpers.ts";

const shot = (name: string) => `test-results/screens/accounts-${name}.png`;

test("signs in with the keyboard alone and lands on the welcome page", async ({ page }) => {
  await page.goto("/gateway");
  await hydrated(page);
  const card = page.getByRole("form", { name: "Account Login" });
  await expect(card.getByRole("heading", { name: "Account Login" })).toBeVisible();
  await expect(card.getByLabel("Email")).toBeFocused();
  await expect(card.getByRole("link", { name: "New to the account service? Register." })).toBeVisible();
  await page.screenshot({ path: shot("1-email") });
  await page.keyboard.press("Enter");
  await expect(card.getByText("Invalid email address.")).toBeVisible();
  await page.keyboard.type("admin@example.com");
  await page.keyboard.press("Enter");
  await expect(card.getByLabel("Password")).toBeFocused();
  const forgot = card.getByRole("link", { name: "Forgot Password" });
  await expect(forgot).toHaveAttribute("href", "/gateway/request-password-reset");
  await expect(forgot).toHaveAttribute("target", "_blank");
  await page.keyboard.type("wrong-password");
  await page.keyboard.press("Enter");
  await expect(card.getByText("Incorrect email or password.")).toBeVisible();
  await page.screenshot({ path: shot("2-password-error") });
  await card.getByLabel("Password").fill(PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/user\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome, Ada" })).toBeVisible();
  await expect(page.getByText("Acme Labs · Administrator · Professional plan")).toBeVisible();
  await expect(page.getByRole("table", { name: "Usage of your plan" })).toContainText("Devices");
  await expect(page.getByRole("table", { name: "Usage of your plan" })).toContainText(/Data kept\s*2 years/);
  await page.screenshot({ path: shot("3-welcome"), fullPage: true });
  await page.getByRole("button", { name: "Dismiss New firmware available" }).click();
  await expect(page.getByText("New firmware available")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Dismiss Scheduled maintenance" })).toBeVisible();
  await expect(page.getByText("New firmware available")).toHaveCount(0);
});

test("shows 'Authenticating...' while a step is busy", async ({ page }) => {
  // The answer is held until the busy button has been seen, so a slow machine cannot miss it.
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route("**/gateway/check-email", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/gateway");
  await hydrated(page);
  await page.getByLabel("Email").fill("viewer@example.com");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("button", { name: "Authenticating..." })).toBeDisabled();
  answer();
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("sends a fresh session with terms not accepted to the acknowledgement page", async ({ page }) => {
  await signInWithKeyboard(page, "newhire@example.com");
  await expect(page).toHaveURL(/\/terms\/acknowledge/);
  await page.screenshot({ path: shot("4-terms") });
  await page.getByRole("button", { name: "I accept the Terms of Service" }).click();
  await expect(page).toHaveURL(/\/user\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome, Nia" })).toBeVisible();
});

test("signs out from the terms acknowledgement page with the keyboard, without accepting", async ({
  page,
}) => {
  // A person of their own: the demo's newhire may have accepted by now.
  const email = "terms.leaver@example.com";
  expect((await page.request.post("/user/new/sign-up", { form: { emailAddress: email } })).ok()).toBe(true);
  await page.goto(await linkFromMailbox(page, email));
  await page.getByLabel("First name").fill("Terms");
  await page.getByLabel("Last name").fill("Leaver");
  await page.getByLabel("Password").fill("terms-leaver-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/terms\/acknowledge/);
  await hydrated(page);
  await page.getByRole("button", { name: "I accept the Terms of Service" }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/gateway$/);
  expect((await page.request.get("/api/v1/session")).ok()).toBe(false);
  await page.goto("/terms/acknowledge");
  await page.waitForURL(/\/gateway/);
});

test("turns on a one-time code, asks for it at sign-in, remembers the browser, and turns it off again", async ({
  page,
}) => {
  // Four sign-ins with their password checks: on a busy CI machine this walk needs more than 30 s.
  test.slow();
  await signInWithKeyboard(page, "manager@example.com");
  await expect(page).toHaveURL(/\/user\/welcome$/);
  await page.goto("/s/security");
  await page.getByRole("button", { name: "Set up one-time passcode" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await page.screenshot({ path: shot("5-mfa-setup") });
  const secret = (await page.getByTestId("totp-secret").textContent())!;
  await page.getByLabel("Code from your app").fill(await totpAt(secret, new Date()));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("On: signing in asks for a code")).toBeVisible();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/gateway$/);
  await hydrated(page);

  await signInWithKeyboard(page, "manager@example.com", PASSWORD, true);
  const card = page.getByRole("form", { name: "Account Login" });
  await expect(card.getByText("Enter your one-time passcode from your authenticator app.")).toBeVisible();
  await expect(card.getByLabel("One-time passcode")).toBeFocused();
  await page.keyboard.type("000000");
  await page.keyboard.press("Enter");
  await expect(card.getByText(/not valid/)).toBeVisible();
  // The enabling code used this time step; the next step's code is fresh.
  await card.getByLabel("One-time passcode").fill(await totpAt(secret, new Date(Date.now() + 30_000)));
  await card.getByLabel("Remember this device for 30 days").check();
  await page.screenshot({ path: shot("6-otp") });
  await card.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/user\/welcome$/);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/gateway$/);

  await signInWithKeyboard(page, "manager@example.com");
  await expect(page).toHaveURL(/\/user\/welcome$/);

  // Turning it off needs the password; then signing in needs no code anywhere.
  await page.goto("/s/security");
  await expect(page.getByText("1 browser skip the code for 30 days.")).toBeVisible();
  const off = page.getByRole("form", { name: "Turn off one-time passcode" });
  await off.getByLabel("Your password").fill("not-my-password");
  await off.getByRole("button", { name: "Turn off" }).click();
  await expect(off.getByText("Incorrect password.")).toBeVisible();
  await off.getByLabel("Your password").fill(PASSWORD);
  await off.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByText("Off: signing in needs only your password.")).toBeVisible();
  await page.context().clearCookies();
  await signInWithKeyboard(page, "manager@example.com");
  await expect(page).toHaveURL(/\/user\/welcome$/);
});

test("shows a failed request's own message on the card", async ({ page }) => {
  await page.route("**/gateway/check-email", (route) => route.abort("connectionrefused"));
  await page.goto("/gateway");
  await hydrated(page);
  await page.getByLabel("Email").fill("admin@example.com");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("form", { name: "Account Login" }).getByRole("alert")).toHaveText(
    /^Request failed due to a network error: POST .*\/gateway\/check-email$/,
  );
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("registers from a public order page through the emailed link", async ({ page }) => {
  await page.goto(`/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
  await hydrated(page);
  const card = page.getByRole("form", { name: "Submit Payment" });
  await card.getByLabel("Email").fill("not-an-email");
  await card.getByRole("button", { name: "Register" }).click();
  await expect(card.getByText("Invalid email address.")).toBeVisible();
  await card.getByLabel("Email").fill("fresh.person@example.com");
  await card.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("heading", { name: "Registration Email Sent" })).toBeVisible();
  await expect(
    page.getByText(
      "An account registration request has been sent to your email. Check the link in the message to validate your account.",
    ),
  ).toBeVisible();
  await page.screenshot({ path: shot("7-registration-sent") });

  await page.goto(await linkFromMailbox(page, "fresh.person@example.com"));
  await page.getByLabel("First name").fill("Fresh");
  await page.getByLabel("Last name").fill("Person");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Password must be between 10 and 200 characters.")).toBeVisible();
  await page.getByLabel("Password").fill("fresh-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/terms\/acknowledge/);
  await page.getByRole("button", { name: "I accept the Terms of Service" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Fresh" })).toBeVisible();
});

test("tells a registered address it is already registered and signs it in to the order", async ({ page }) => {
  await page.goto(`/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
  await hydrated(page);
  const register = page.getByRole("form", { name: "Submit Payment" });
  await register.getByLabel("Email").fill("billing@example.com");
  await register.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("heading", { name: "Good News! You are Already Registered." })).toBeVisible();
  await expect(page.getByText("Enter your password and click login to access your account.")).toBeVisible();
  await page.screenshot({ path: shot("8-already-registered") });
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/order/details/${DEMO.orderId}$`));
});

test("opens the public quote card in sign-in mode with ref=login", async ({ page }) => {
  await page.goto(`/p/quote/QUO-${DEMO.openQuoteId}?ref=login`);
  await hydrated(page);
  await expect(page.getByRole("form", { name: "Account Login" })).toBeVisible();
  await page.getByRole("link", { name: "New to the account service? Register." }).click();
  await expect(page.getByRole("form", { name: "Place your Order" })).toBeVisible();
  await page.getByRole("link", { name: "Already have an account? Sign in." }).click();
  await expect(page.getByRole("form", { name: "Account Login" })).toBeVisible();
});

test("resets a forgotten password by the emailed link", async ({ page }) => {
  await page.goto("/gateway/request-password-reset");
  await hydrated(page);
  await page.getByLabel("Email").fill("provisioner@example.com");
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(/If an account uses that address/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/gateway");
  await page.goto(await linkFromMailbox(page, "provisioner@example.com"));
  await page.getByLabel("New password", { exact: true }).fill("provisioner-new-1");
  await page.getByRole("button", { name: "Save password" }).click();
  // Without one-time codes the link is the only factor there is: signed in at once.
  await expect(page.getByRole("heading", { name: "Welcome, Paul" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/gateway$/);
  await signInWithKeyboard(page, "provisioner@example.com", "provisioner-new-1");
  await expect(page).toHaveURL(/\/user\/welcome$/);
});

test.describe("the demo Administrator's settings", () => {
  // The demo Administrator is shared with the device tests: whatever happens here (a failed
  // step, a timeout on a busy machine), it is put back to Acme, °C and New York afterwards. A
  // failure that left it on Northwind in °F failed every later device test of the run.
  test.afterEach(async ({ page }) => {
    const session = (await (await page.request.get("/api/v1/session")).json()).data.sessionInformation as {
      userAssignmentList: { subscriptionId: number; subscriptionName: string }[];
    };
    const acme = session.userAssignmentList.find((a) => a.subscriptionName === "Acme Labs")!;
    const switched = await page.request.post("/api/v1/session/active-subscription", {
      data: { subscriptionId: acme.subscriptionId },
    });
    expect(switched.status()).toBe(200);
    const settings = await page.request.patch("/api/v1/session/settings", {
      data: { temperatureScale: "C", timezone: "America/New_York" },
    });
    expect(settings.status()).toBe(200);
  });

  test("saves temperature scale and time zone, and switches subscription", async ({ page }) => {
    await signInWithKeyboard(page, "admin@example.com");
    await page.goto("/s/settings");
    await page.getByLabel("Fahrenheit (°F)").check();
    await page.getByLabel("Time zone").selectOption("Europe/Berlin");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status")).toHaveText("Settings saved.");
    await page.reload();
    await expect(page.getByLabel("Fahrenheit (°F)")).toBeChecked();
    await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
    await page.goto("/user/welcome");
    await page.getByLabel("Subscription").selectOption({ label: "Northwind Cold Storage (Viewer)" });
    await expect(page.getByText("Northwind Cold Storage · Viewer · Basic plan")).toBeVisible();
    await expect(page.getByRole("button", { name: "Dismiss Northwind notice" })).toBeVisible();
    // The demo Administrator is shared with the device tests: put back Acme, °C and New York.
    await page.getByLabel("Subscription").selectOption({ label: "Acme Labs (Administrator)" });
    await expect(page.getByText("Acme Labs · Administrator", { exact: false })).toBeVisible();
    await page.goto("/s/settings");
    await page.getByLabel("Celsius (°C)").check();
    await page.getByLabel("Time zone").selectOption("America/New_York");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status")).toHaveText("Settings saved.");
  });
});

test("sends a signed-out visitor of a signed-in page to sign in and back", async ({ page }) => {
  await page.goto("/s/settings");
  await expect(page).toHaveURL(/\/gateway\?next=%2Fs%2Fsettings$/);
  await hydrated(page);
  await page.getByLabel("Email").fill("billing@example.com");
  await page.keyboard.press("Enter");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/s\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
});

test("keeps what a visitor typed before the card hydrated", async ({ page }) => {
  // Hold back the island's script, as a slow link would, while the person types.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/_astro/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/p/quote/QUO-${DEMO.openQuoteId}`, { waitUntil: "commit" });
  await page.getByLabel("Email").fill("early.typist@example.com");
  release();
  await hydrated(page);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("heading", { name: "Registration Email Sent" })).toBeVisible();
});

/** Registers a new person through the emailed link and accepts the terms; leaves them signed in. */
async function registerFresh(page: Page, email: string, password: string) {
  expect((await page.request.post("/user/new/sign-up", { form: { emailAddress: email } })).ok()).toBe(true);
  await page.goto(await linkFromMailbox(page, email));
  await page.getByLabel("First name").fill("Fresh");
  await page.getByLabel("Last name").fill("Person");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/terms\/acknowledge/);
  await page.getByRole("button", { name: "I accept the Terms of Service" }).click();
  await expect(page).toHaveURL(/\/user\/welcome$/);
}

test("after a reset with one-time codes on, sends the person to sign in again with a code", async ({
  page,
}) => {
  const email = "reset.codes@example.com";
  await registerFresh(page, email, "first-password-1");
  const setup = await (await page.request.post("/api/v1/account/mfa/setup")).json();
  const secret: string = setup.data.secret;
  const enable = await page.request.post("/api/v1/account/mfa/enable", {
    data: { code: await totpAt(secret, new Date()) },
  });
  expect(enable.ok()).toBe(true);
  await page.request.post("/gateway/logout");

  await page.goto("/gateway/request-password-reset");
  await hydrated(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(/If an account uses that address/)).toBeVisible();
  await page.goto(await linkFromMailbox(page, email));
  await page.getByLabel("New password", { exact: true }).fill("second-password-2");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByRole("heading", { name: "Password changed" })).toBeVisible();
  await expect(
    page.getByText("sign in again with your new password and a code from your authenticator app"),
  ).toBeVisible();
  await page.screenshot({ path: shot("9-reset-sign-in-again") });
  expect((await page.request.get("/api/v1/session")).status()).toBe(401);

  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/gateway$/);
  await signInWithKeyboard(page, email, "second-password-2", true);
  const card = page.getByRole("form", { name: "Account Login" });
  await card.getByLabel("One-time passcode").fill(await totpAt(secret, new Date(Date.now() + 30_000)));
  await card.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/user\/welcome$/);
});

test("lists the signed-in browsers and signs out everywhere else", async ({ page, browser }) => {
  const email = "two.browsers@example.com";
  const password = "two-browsers-1";
  await registerFresh(page, email, password);
  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const other = await elsewhere.newPage();
  await signInWithKeyboard(other, email, password);

  await page.goto("/s/security");
  const list = page.getByRole("list", { name: "Signed-in browsers" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByText("This browser")).toHaveCount(1);
  await expect(list.getByRole("listitem").first()).toContainText(/Chrome on Linux/);
  await expect(list.getByRole("listitem").first()).toContainText(/Signed in \w+ \d+, \d{4}, \d+:\d\d [AP]M/);
  await page.screenshot({ path: shot("10-sessions-desktop"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot("11-sessions-390"), fullPage: true });

  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status")).toHaveText("Signed out 1 other session.");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign out everywhere else" })).toBeDisabled();
  await other.goto("/s/security");
  await expect(other).toHaveURL(/\/gateway\?next=%2Fs%2Fsecurity$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Security" })).toBeVisible();
  await elsewhere.close();
});
