import type { Page } from "@playwright/test";
import { DEMO } from "../../server/seed/demo.ts";
import { ENTER_CONTACT, ENTER_NUMBER } from "../../src/domain/lookup.ts";
import { PORTAL } from "../../playwright.config.ts";
import { pageWeight } from "../../scripts/bench/weight.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated } from "./helpers.ts";

// /p/order-quote/search (spec section 2, Lookup page). Each miss spends one of the test
// client's ten lookups per 15 minutes; a found record gives its place back.
const LOOKUP = "/p/order-quote/search";
const SHOTS = "/tmp/shots-F";
const PHONE = { width: 390, height: 844 };

/** Opens the lookup page and waits until the form can be sent. */
async function openLookup(page: Page) {
  await page.goto(LOOKUP);
  await hydrated(page);
  return page.getByRole("form", { name: "Quote and Order Lookup" });
}

test("keeps the lookup page within 75 KB gzip of JavaScript before any interaction", async () => {
  const weight = await pageWeight(PORTAL, LOOKUP);
  expect(weight.js.gzip).toBeLessThanOrEqual(75 * 1024);
});

test("finds an order with the keyboard alone and opens its page", async ({ page }) => {
  const form = await openLookup(page);
  await expect(page.getByRole("heading", { level: 1, name: "Quote and Order Lookup" })).toBeVisible();
  const number = form.getByLabel("Quote/Order Number");
  await expect(number).toHaveAttribute("placeholder", "ORD-12345");
  await expect(number).toHaveAccessibleDescription(
    "Numbers begin with QUO- for a quote or ORD- for an order.",
  );
  await expect(form.getByLabel("Contact Name")).toHaveAccessibleDescription(
    "The full contact name on the quote or order.",
  );
  // After the skip link and the header's four links the first field takes the focus.
  for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
  await expect(number).toBeFocused();
  await page.keyboard.type(`ORD-${DEMO.orderId}`);
  await page.keyboard.press("Tab");
  await page.keyboard.type("Dana Whitfield");
  await page.screenshot({ path: `${SHOTS}/lookup-desktop.png` });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
});

test("finds a quote by its number and a loosely typed name and opens its token page", async ({ page }) => {
  const form = await openLookup(page);
  await form.getByLabel("Quote/Order Number").fill(`quo-${DEMO.openQuoteId}`);
  await form.getByLabel("Contact Name").fill("  dana   WHITFIELD ");
  await form.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(`/p/quote/${DEMO.openQuoteToken}`);
});

test("says 'Record not found.' for a wrong name and for a wrong number, on a phone too", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const form = await openLookup(page);
  await form.getByLabel("Quote/Order Number").fill(`ORD-${DEMO.orderId}`);
  await form.getByLabel("Contact Name").fill("Someone Else");
  await page.keyboard.press("Enter");
  await expect(form.getByRole("alert")).toHaveText("Record not found.");
  await page.screenshot({ path: `${SHOTS}/lookup-phone-not-found.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await form.getByLabel("Quote/Order Number").fill("ORD-99999");
  await form.getByLabel("Contact Name").fill("Dana Whitfield");
  await form.getByRole("button", { name: "Find" }).click();
  await expect(form.getByRole("button", { name: "Find" })).toBeEnabled();
  await expect(form.getByRole("alert")).toHaveText("Record not found.");
  await expect(page).toHaveURL(LOOKUP);
});

test("asks for an empty field by name and puts the cursor in it, without a search", async ({ page }) => {
  const form = await openLookup(page);
  let searches = 0;
  page.on("request", (r) => void (r.url().includes("/orders-and-quotes/public/search") && searches++));
  await form.getByRole("button", { name: "Find" }).click();
  await expect(form.getByRole("alert")).toHaveText(`${ENTER_NUMBER} ${ENTER_CONTACT}`);
  await expect(form.getByLabel("Quote/Order Number")).toBeFocused();
  await expect(form.getByLabel("Quote/Order Number")).toHaveAttribute("aria-invalid", "true");
  await page.keyboard.type(`ORD-${DEMO.orderId}`);
  await page.keyboard.press("Enter");
  await expect(form.getByRole("alert")).toHaveText(ENTER_CONTACT);
  await expect(form.getByLabel("Contact Name")).toBeFocused();
  await expect(form.getByLabel("Quote/Order Number")).not.toHaveAttribute("aria-invalid");
  expect(searches).toBe(0);
});

test("reads 'Finding...' and cannot be pressed again while it asks", async ({ page }) => {
  // The answer is held until the busy button has been seen, so a slow machine cannot miss it.
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  let asked = 0;
  await page.route("**/api/v1/orders-and-quotes/public/search?*", async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  const form = await openLookup(page);
  await form.getByLabel("Quote/Order Number").fill(`QUO-${DEMO.openQuoteId}`);
  await form.getByLabel("Contact Name").fill("Dana Whitfield");
  await page.keyboard.press("Enter");
  const busy = form.getByRole("button", { name: "Finding..." });
  await expect(busy).toBeDisabled();
  await page.keyboard.press("Enter");
  answer();
  await expect(page).toHaveURL(`/p/quote/${DEMO.openQuoteToken}`);
  expect(asked).toBe(1);
});
