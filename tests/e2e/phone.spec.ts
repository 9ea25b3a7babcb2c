import type { Page } from "@playwright/test";
import { DEMO } from "../../server/seed/demo.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated, linkFromMailbox, signInAs } from "./helpers.ts";

// Issue 7 part 8: on a phone (390 × 844) every page fits its width, no sideways scrolling.
const PHONE = { width: 390, height: 844 };
const ORDER = `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;

const PUBLIC_PAGES = [
  "/",
  "/products",
  "/support",
  "/terms",
  "/gateway",
  "/gateway/request-password-reset",
  "/gateway/reset-password?token=x",
  "/user/register",
  "/user/validate?token=x",
  "/p/order-quote/search",
  ORDER,
  `/p/quote/QUO-${DEMO.openQuoteId}`,
  `/p/quote/${DEMO.openQuoteToken}`,
  `/p/device/${DEMO.raDeviceHash}`,
  `/public/device/${DEMO.otherDeviceHash}`,
  `/public/report/${DEMO.reportHash}`,
  "/p/quote/pay-as-guest/abc",
  "/p/order/pay-as-guest/abc",
  `/p/quote/pay-as-guest/${DEMO.openQuoteToken}`,
  `/p/order/pay-as-guest${ORDER.slice("/p/order".length)}`,
  "/ui-kit",
  "/no/such/page",
  "/dev/mailbox",
];

const SIGNED_IN_PAGES = [
  "/user/welcome",
  "/s/settings",
  "/s/security",
  "/s/devices",
  "/s/guidance/tags",
  "/s/orders/list",
  "/s/orders/quotes/list",
];

test.use({ viewport: PHONE });

/** A screenshot's file: the path without its query and without the demo's long tokens. */
const shot = (path: string) => {
  const name = path
    .replace(/\?.*|\/[\w-]{20,}/g, "")
    .replace(/\W+/g, "-")
    .replace(/^-|-$/g, "");
  return `test-results/screens/phone-${name || "home"}.png`;
};

/**
 * Opens the page, waits until it is hydrated and nothing is busy, and returns how wide the
 * document is together with the elements that reach past the right edge (to say which).
 */
async function widthOf(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
  await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
  await page.screenshot({ path: shot(path), fullPage: true });
  return page.evaluate((width) => {
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ").join(".") : ""}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8) };
  }, PHONE.width);
}

async function expectFits(page: Page, path: string) {
  const { scrollWidth, wide } = await widthOf(page, path);
  expect
    .soft(scrollWidth, `${path} is ${scrollWidth} px wide: ${wide.join(", ")}`)
    .toBeLessThanOrEqual(PHONE.width);
}

for (const path of PUBLIC_PAGES) {
  test(`fits ${path.split("?")[0]} into a 390 px phone screen`, async ({ page }) => {
    await expectFits(page, path);
  });
}

test("puts each fact of a public order under its label on a phone, tracking numbers unbroken", async ({
  page,
}) => {
  await page.goto(ORDER);
  const label = page.locator(".facts dt", { hasText: "Tracking Numbers" });
  const value = label.locator("xpath=following-sibling::dd[1]");
  const numbers = value.getByRole("listitem");
  await expect(numbers.first()).not.toBeEmpty();
  const [l, v] = [(await label.boundingBox())!, (await value.boundingBox())!];
  expect(v.x).toBe(l.x);
  expect(v.y).toBeGreaterThanOrEqual(l.y + l.height);
  // One line per number: a number cut in two is two lines tall.
  for (const n of await numbers.all()) {
    const lineHeight = await n.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await n.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
  }
});

test("fits every signed-in page into a 390 px phone screen, with Sign out in reach", async ({ page }) => {
  await signInAs(page, "viewer@example.com");
  for (const path of SIGNED_IN_PAGES) {
    await expectFits(page, path);
    const signOut = await page.getByRole("button", { name: "Sign out", exact: true }).boundingBox();
    expect
      .soft(signOut && signOut.x + signOut.width, `Sign out's right edge on ${path}`)
      .toBeLessThanOrEqual(PHONE.width);
  }
});

test("keeps the signed-in menu to two rows on a 390 px phone", async ({ page }) => {
  await signInAs(page, "viewer@example.com");
  await page.goto("/s/devices");
  const menu = page.getByRole("navigation", { name: "Account" });
  await expect(menu.getByRole("link", { name: "Security" })).toBeVisible();
  const rows = await menu
    .getByRole("link")
    .evaluateAll((links) => new Set(links.map((a) => Math.round(a.getBoundingClientRect().top))).size);
  expect(rows).toBe(2);
});

test("fits the terms acknowledgement into a 390 px phone screen", async ({ page }) => {
  // A person of their own who has not accepted the terms: the demo's newhire may have by now.
  const email = "phone.terms@example.com";
  expect((await page.request.post("/user/new/sign-up", { form: { emailAddress: email } })).ok()).toBe(true);
  await page.goto(await linkFromMailbox(page, email));
  await page.getByLabel("First name").fill("Phone");
  await page.getByLabel("Last name").fill("Terms");
  await page.getByLabel("Password").fill("phone-terms-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/terms\/acknowledge/);
  await expectFits(page, "/terms/acknowledge");
});

test("fits the Shipment Details dialog into a 390 px phone screen", async ({ page }) => {
  await page.goto(ORDER);
  await page.locator("#order-card .tracking-list button").first().click();
  const dialog = page.getByRole("dialog", { name: "Shipment Details" });
  await expect(dialog.getByRole("cell").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/phone-shipment-details.png" });
  const box = await dialog.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  const { scrollWidth, clientWidth } = await dialog
    .locator("article")
    .evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
});
