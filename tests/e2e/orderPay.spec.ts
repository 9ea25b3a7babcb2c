import { mkdir } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { describe as describeFinding, failing, scan } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";

// Paying an order's balance signed in (issue 11; spec sections 2 and 4). The payments
// change demo orders other specs read (5001 Open, 5002 payable), so they run on a portal of
// their own (port 4416); the shared portal's fixture does not scan it, so the test asks axe
// itself. The Viewer's check changes nothing and runs on the shared portal.

const OWN = 4416;
const PHONE = { width: 390, height: 844 };
const SHOTS = "test-results/screens";
const YEAR = new Date().getFullYear();

/** The value beside a label in the page's facts (a description list). */
const fact = (scope: Page | Locator, name: string) =>
  scope
    .locator(".facts > div")
    .filter({ has: scope.locator("dt", { hasText: new RegExp(`^${name}$`) }) })
    .locator("dd");

/** A screenshot; a page with a dialog open is taken as the viewport shows it (the dialog in view). */
async function shot(page: Page, name: string, fullPage = true) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/orderPay-${name}.png`, fullPage });
}

async function expectNoAxeFailures(page: Page) {
  const found = (await scan(page)).filter(failing).map(describeFinding);
  expect(found, "accessibility violations (axe)").toEqual([]);
}

test.describe("on a portal of its own", () => {
  onOwnPortal(OWN);

  test("pays an order's balance by keyboard: Payment Complete, then Paid with the payment listed", async ({
    page,
  }) => {
    test.slow();
    await signInAs(page, "billing@example.com");
    await page.goto("/s/order/details/5001");
    const form = page.getByRole("form", { name: "Pay Balance Due" });
    await expect(form).toBeVisible();
    await expect(fact(page, "Payment Status")).toHaveText(/Open/);
    const balance = (await fact(page, "Balance Due").textContent())!;
    await expect(form.getByRole("button", { name: `Pay ${balance}` })).toBeVisible();
    await expect(form.getByLabel("Email")).toHaveCount(0);
    await shot(page, "form-desktop");
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "form-phone");
    await page.setViewportSize({ width: 1280, height: 800 });

    await form.getByLabel("Card Number").focus();
    await page.keyboard.type("4242 4242 4242 4242");
    await page.keyboard.press("Tab");
    await page.keyboard.press("End"); // month 12
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown"); // next year
    await page.keyboard.press("Tab");
    await page.keyboard.type("123");
    await page.keyboard.press("Enter");

    const dialog = page.getByRole("dialog", { name: "Payment Complete" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`payment of ${balance} with Visa ending in 4242`);
    await expect(dialog).toContainText("A receipt is on its way to billing@example.com.");
    const href = (await dialog
      .getByRole("link", { name: "Download the receipt (PDF)" })
      .getAttribute("href"))!;
    const pdf = await page.request.get(href);
    expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");
    await expectNoAxeFailures(page);
    await shot(page, "complete-desktop", false);
    await page.setViewportSize(PHONE);
    await shot(page, "complete-phone", false);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await expect(fact(page, "Payment Status")).toHaveText(/Paid/);
    await expect(fact(page, "Balance Due")).toHaveText("$0.00");
    await expect(form).toHaveCount(0);
    const received = page.getByRole("status").filter({ hasText: "your payment was received" });
    await expect(received).toBeFocused();
    // Beside the payment's facts (Paid, $0.00), not at the bottom where the form was.
    const noteTop = (await received.boundingBox())!.y;
    expect(noteTop).toBeLessThan((await page.getByRole("heading", { name: "Items" }).boundingBox())!.y);
    expect(noteTop).toBeGreaterThan((await fact(page, "Balance Due").boundingBox())!.y);
    const payments = page.getByRole("table", { name: "Previous payments" });
    await expect(payments.getByRole("row").filter({ hasText: "Visa ending in 4242" })).toHaveCount(1);

    // The server agrees: after a reload the order is Paid and takes no payment.
    await page.reload();
    await expect(fact(page, "Payment Status")).toHaveText(/Paid/);
    await expect(form).toHaveCount(0);
  });

  test("shows the card's refusal at its field and pays with the next card", async ({ page }) => {
    test.slow();
    await signInAs(page, "admin@example.com");
    await page.goto("/s/order/details/5002");
    const form = page.getByRole("form", { name: "Pay Balance Due" });
    await form.getByLabel("Card Number").fill("4000 0000 0000 0002");
    await form.getByLabel("Expiration Month").selectOption("12");
    await form.getByLabel("Expiration Year").selectOption(String(YEAR + 1));
    await form.getByLabel("CCV").fill("123");
    await form.getByRole("button", { name: /^Pay / }).click();
    await expect(form.getByLabel("Card Number")).toHaveAccessibleDescription("Your card was declined.");
    await expect(form.getByLabel("Card Number")).toBeFocused();
    await form.getByLabel("Card Number").fill("4242 4242 4242 4242");
    await form.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("dialog", { name: "Payment Complete" })).toBeVisible();
  });
});

test("a Viewer sees the balance but no payment form", async ({ page }) => {
  await signInAs(page, "viewer@example.com");
  await page.goto("/s/order/details/5003");
  await expect(page.getByRole("heading", { level: 1, name: "Order ORD-5003" })).toBeVisible();
  await expect(fact(page, "Balance Due")).not.toHaveText("$0.00");
  await expect(page.getByRole("form", { name: "Pay Balance Due" })).toHaveCount(0);
  await expect(page.getByLabel("Card Number")).toHaveCount(0);
  // Nor a Share menu: Viewers hold neither the share-link nor the grant-access privilege.
  await expect(page.getByRole("button", { name: /^Share$|^Get Link/ })).toHaveCount(0);
});
