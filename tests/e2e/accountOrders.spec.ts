import { mkdir } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { demoToken } from "../../server/seed/demo.ts";
import { expect, test } from "./fixtures.ts";
import { signInWithKeyboard } from "./helpers.ts";

// The signed-in quote and order pages (issue 11, first slice): list → detail → Back to List for
// a quote and an order, the Track action's Shipment Details dialog, and a member opening a
// public order link landing on the signed-in page. Screenshots at desktop and phone width.

const PHONE = { width: 390, height: 844 };
const SHOTS = "/tmp/shots-Q1";

async function shot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test.describe("signed-in quotes and orders", () => {
  test("an order opens from the list, shows its progress and shipments, and goes back", async ({ page }) => {
    await signInWithKeyboard(page, "admin@example.com");
    await page.goto("/s/orders/list");
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
    const rows = page.getByRole("table", { name: "Orders, newest first" }).getByRole("rowheader");
    await expect(rows).toHaveCount(11);
    await expect(rows.first()).toHaveText("ORD-5001");
    await shot(page, "orders-list");

    await page.getByLabel("Search by order number").fill("5003");
    await expect(rows).toHaveText(["ORD-5003"]);
    await page.getByLabel("Search by order number").fill("nothing");
    await expect(page.getByText("No orders match that number.")).toBeVisible();
    await page.getByLabel("Search by order number").fill("ord-5003");
    await rows.getByRole("link", { name: "ORD-5003" }).click();

    await expect(page).toHaveURL(/\/s\/order\/details\/5003$/);
    await expect(page.getByRole("heading", { level: 1, name: "Order ORD-5003" })).toBeVisible();
    await expect(page.getByLabel("Order summary")).toContainText("PO-88177");
    await expect(page.getByLabel("Order summary")).toContainText("Partial");
    await expect(page.getByRole("note").filter({ hasText: "not shipped yet" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Shipping Address" })).toBeVisible();
    await shot(page, "order-details");

    await page
      .getByRole("button", { name: /^Track shipment/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Shipment Details" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Loading shipment details...")).toHaveCount(0);
    await shot(page, "order-track");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await page.getByRole("link", { name: "Back to List" }).click();
    await expect(page).toHaveURL(/\/s\/orders\/list$/);
  });

  test("an order shows its shipping progress line with ticked steps", async ({ page }) => {
    await signInWithKeyboard(page, "viewer@example.com");
    await page.goto("/s/order/details/5002");
    const line = page.getByRole("list", { name: "Shipping progress" });
    await expect(line.getByRole("listitem")).toHaveText(["Received (done)", "Shipped (done)", "Delivered"]);
    await page.goto("/s/order/details/5006");
    await expect(line.getByRole("listitem")).toHaveText(["Received (done)", "Shipped", "Delivered"]);
  });

  test("a quote opens from the list with its specialist, addresses and totals, and goes back", async ({
    page,
  }) => {
    await signInWithKeyboard(page, "billing@example.com");
    await page.goto("/s/orders/quotes/list");
    await expect(page.getByRole("heading", { level: 1, name: "Quotes" })).toBeVisible();
    const table = page.getByRole("table", { name: "Quotes, newest first" });
    await expect(table.getByRole("rowheader")).toHaveCount(4);
    await expect(table.getByRole("row").filter({ hasText: "QUO-1002" })).toContainText("Closed");
    await shot(page, "quotes-list");

    await table.getByRole("link", { name: "QUO-1001" }).click();
    await expect(page).toHaveURL(/\/s\/quotes\/details\/QUO-1001$/);
    await expect(page.getByRole("heading", { level: 1, name: "Quote QUO-1001" })).toBeVisible();
    await expect(page.getByLabel("Quote summary")).toContainText(/Expires at [A-Z][a-z]{2} \d{2}, \d{4}/);
    await expect(page.getByLabel("Totals")).toContainText("Grand Total");
    await shot(page, "quote-details");

    // A Billing user may order the open quote: it asks first to verify the shipping address.
    await page.getByRole("dialog", { name: "Verify Shipping Address" }).press("Escape");
    await page.getByRole("link", { name: "Back to List" }).click();
    await expect(page).toHaveURL(/\/s\/orders\/quotes\/list$/);
  });

  test("another subscription's order shows the retrieval error and Back to List", async ({ page }) => {
    await signInWithKeyboard(page, "admin@example.com");
    await page.goto("/s/order/details/5012");
    await expect(page.getByRole("alert")).toContainText("Unexpected Error retrieving order.");
    await expect(page.getByRole("link", { name: "Back to List" })).toBeVisible();
  });

  test("a member opening a public order link lands on the signed-in order page", async ({ page }) => {
    await signInWithKeyboard(page, "admin@example.com");
    await page.goto(`/p/order/ORD-5003-${demoToken("order-5003")}`);
    await expect(page).toHaveURL(/\/s\/order\/details\/5003$/);
    await expect(page.getByRole("heading", { level: 1, name: "Order ORD-5003" })).toBeVisible();
  });

  test("the lists and details fit a phone", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInWithKeyboard(page, "admin@example.com");
    for (const [path, name] of [
      ["/s/orders/list", "orders-list-phone"],
      ["/s/orders/quotes/list", "quotes-list-phone"],
      ["/s/order/details/5003", "order-details-phone"],
      ["/s/quotes/details/QUO-1001", "quote-details-phone"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText("Loading")).toHaveCount(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(PHONE.width);
      await shot(page, name);
    }
  });
});
