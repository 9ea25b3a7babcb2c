import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { CONFIGURED, CONFIGURED_ACCOUNT } from "../../playwright.config.ts";

const PUBLIC_PAGES = [
  {
    path: `/public/report/${DEMO.reportHash}?tempScale=F&timezone=UTC`,
    heading: "Lab Climate — Last 24 Hours",
  },
  { path: `/p/device/${DEMO.raDeviceHash}`, heading: "Lab Base Station" },
  { path: `/p/device/${DEMO.ramaxDeviceHash}`, heading: "Warehouse RAMAX" },
  { path: `/public/device/${DEMO.otherDeviceHash}`, heading: "Freezer Monitor" },
  { path: `/p/quote/QUO-${DEMO.openQuoteId}`, heading: "Quote" },
  { path: `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`, heading: "Order" },
  { path: `/p/quote/pay-as-guest/${DEMO.openQuoteToken}`, heading: "Place your Order" },
  { path: `/p/order/pay-as-guest/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`, heading: "Submit Payment" },
  { path: "/p/order-quote/search", heading: "Quote and Order Lookup" },
  { path: "/terms", heading: "Terms of Service" },
];

/**
 * Collects console errors and CSP violations: a page must load with none. The session
 * check's 401 for an anonymous visitor is expected (a failure means "not signed in").
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 401/.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

for (const { path, heading } of PUBLIC_PAGES) {
  test(`shows the shared chrome and the "${heading}" page at ${path.split("?")[0]}`, async ({ page }) => {
    const errors = watchErrors(page);
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "Device Portal home" })).toHaveAttribute(
      "href",
      "/user/welcome",
    );
    await expect(banner.getByRole("link", { name: "Products" })).toBeVisible();
    await expect(banner.getByRole("link", { name: "Support" })).toBeVisible();
    await expect(
      page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" }),
    ).toHaveAttribute("href", "/terms");
    await expect(page.getByRole("contentinfo")).toContainText(/© \d{4} Device Portal/);
    await page.screenshot({
      path: `test-results/screens/${heading.replace(/\W+/g, "-").toLowerCase()}.png`,
      fullPage: true,
    });
    expect(errors).toEqual([]);
  });
}

test("keeps the home page's two buttons apart", async ({ page }) => {
  await page.goto("/");
  const signIn = (await page.getByRole("button", { name: "Sign in" }).boundingBox())!;
  const find = (await page.getByRole("button", { name: "Find a quote or order" }).boundingBox())!;
  expect(find.y).toBe(signIn.y);
  expect(find.x - (signIn.x + signIn.width)).toBeGreaterThanOrEqual(8);
});

test("states copyright year 2022 on the terms page", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByRole("contentinfo")).toContainText("© 2022 Device Portal");
});

test("is usable with the keyboard from the first Tab", async ({ page }) => {
  await page.goto("/p/order-quote/search");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Device Portal home" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Products" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Support" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Account Login" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/gateway$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account Login" })).toBeVisible();
});

test("skips the header with its first Tab: Enter, then Tab reaches the page's first field", async ({
  page,
}) => {
  await page.goto("/p/order-quote/search");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("main").getByRole("textbox").first()).toBeFocused();
});

test("shows a friendly page for an unknown address", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "look up a quote or order" }).click();
  await expect(page).toHaveURL(/\/p\/order-quote\/search$/);
});

test("sends an anonymous visitor of the signed-in area to sign in first", async ({ page }) => {
  await page.goto("/s/orders/list");
  await expect(page).toHaveURL(/\/gateway\?next=%2Fs%2Forders%2Flist$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account Login" })).toBeVisible();
});

test("points Account Login and the quote's API call at the hosts configured at run time", async ({
  page,
}) => {
  // The configured API host does not exist: the quote's call fails to connect, and that
  // failed request is itself the proof of where it was sent.
  const errors = watchErrors(page);
  const sessionCheck = page.waitForRequest((r) =>
    r.url().startsWith("http://api.localhost:4413/api/v1/quotes/public/"),
  );
  await page.goto(`${CONFIGURED}/p/quote/QUO-1`);
  await expect(page.getByRole("button", { name: "Account Login" })).toHaveAttribute(
    "href",
    `${CONFIGURED_ACCOUNT}/gateway`,
  );
  const config = await page.locator("#runtime-config").textContent();
  expect(JSON.parse(config!)).toMatchObject({
    apiBase: "http://api.localhost:4413",
    accountBase: CONFIGURED_ACCOUNT,
  });
  await sessionCheck;
  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});

test("refuses to run an injected inline script (CSP)", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
  await page.goto("/terms");
  await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.injectedByTest = true";
    document.body.append(s);
  });
  expect(
    await page.evaluate(() => (window as unknown as { injectedByTest?: boolean }).injectedByTest),
  ).toBeUndefined();
  expect(violations.join("\n")).toMatch(/Content Security Policy/);
});
