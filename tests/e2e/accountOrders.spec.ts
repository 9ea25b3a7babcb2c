import { mkdir } from "node:fs/promises";
import type { Page, Route } from "@playwright/test";
import { demoToken } from "../../server/seed/demo.ts";
import { expect, test } from "./fixtures.ts";
import { signInAs } from "./helpers.ts";

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
    await signInAs(page, "admin@example.com");
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
    // Each payment has its receipt, as the guest page has.
    const receipt = page.getByRole("link", { name: "PDF receipt of this payment" }).first();
    await expect(receipt).toHaveAttribute("href", /\/api\/v1\/orders\/5003\/receipt\/\d+$/);
    const download = page.waitForEvent("download");
    await receipt.click();
    expect((await download).suggestedFilename()).toMatch(/^receipt-ORD-5003-\d+\.pdf$/);

    await page
      .getByRole("button", { name: /^Track shipment/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Track shipment" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Loading shipment details...")).toHaveCount(0);
    await shot(page, "order-track");
    // The public page's dialog, laid out the same: each label beside its value, one pair a
    // row, the tracking number on one line.
    const pairs = await dialog.locator("dl.facts").evaluate((dl) =>
      [...dl.querySelectorAll("dt")].map((dt) => {
        const dd = dt.nextElementSibling as HTMLElement;
        const [a, b] = [dt.getBoundingClientRect(), dd.getBoundingClientRect()];
        const line = parseFloat(getComputedStyle(dd).lineHeight);
        return {
          label: dt.textContent,
          top: a.top - b.top,
          left: a.left,
          beside: b.left > a.right,
          lines: Math.round(b.height / line),
        };
      }),
    );
    expect(pairs.map((p) => p.label)).toEqual([
      "Shipping Method",
      "Tracking Number",
      "Ship From",
      "Ship To",
      "Signed For By",
    ]);
    expect(new Set(pairs.map((p) => p.left)).size).toBe(1);
    for (const p of pairs) expect([p.label, Math.abs(p.top) < 2, p.beside]).toEqual([p.label, true, true]);
    expect(pairs[1]!.lines).toBe(1);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await page.getByRole("link", { name: "Back to List" }).click();
    await expect(page).toHaveURL(/\/s\/orders\/list$/);
  });

  test("an order shows its shipping progress line with ticked steps", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto("/s/order/details/5002");
    const line = page.getByRole("list", { name: "Shipping progress" });
    await expect(line.getByRole("listitem")).toHaveText(["Received (done)", "Shipped (done)", "Delivered"]);
    await page.goto("/s/order/details/5006");
    await expect(line.getByRole("listitem")).toHaveText(["Received (done)", "Shipped", "Delivered"]);
  });

  test("a quote opens from the list with its specialist, addresses and totals, and goes back", async ({
    page,
  }) => {
    await signInAs(page, "billing@example.com");
    await page.goto("/s/orders/quotes/list");
    await expect(page.getByRole("heading", { level: 1, name: "Quotes" })).toBeVisible();
    const table = page.getByRole("table", { name: "Quotes, newest first" });
    await expect(table.getByRole("rowheader")).toHaveCount(4);
    await expect(table.getByRole("row").filter({ hasText: "QUO-1002" })).toContainText("Closed");
    // The spec's label for an open quote, its date past or not (spec section 3, Quote).
    await expect(table.getByRole("row").filter({ hasText: "QUO-1003" })).toContainText(
      /Expires at \w{3} \d{2}, \d{4}/,
    );
    await expect(table.getByRole("row").filter({ hasText: "QUO-1001" })).toContainText(
      /Expires at \w{3} \d{2}, \d{4}/,
    );
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
    await signInAs(page, "admin@example.com");
    await page.goto("/s/order/details/5012");
    await expect(page.getByRole("alert")).toContainText("Unexpected Error retrieving order.");
    await expect(page.getByRole("link", { name: "Back to List" })).toBeVisible();
  });

  test("a member opening a public order link lands on the signed-in order page", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await page.goto(`/p/order/ORD-5003-${demoToken("order-5003")}`);
    await expect(page).toHaveURL(/\/s\/order\/details\/5003$/);
    await expect(page.getByRole("heading", { level: 1, name: "Order ORD-5003" })).toBeVisible();
  });

  test("each signed-in page names itself in the tab's title", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    for (const [path, title] of [
      ["/s/orders/list", "Orders · My Account"],
      ["/s/orders/quotes/list", "Quotes · My Account"],
      ["/s/order/details/5003", "Order ORD-5003 · My Account"],
      ["/s/order/details/ORD-5003", "Order ORD-5003 · My Account"],
      ["/s/quotes/details/QUO-1001", "Quote QUO-1001 · My Account"],
      ["/s/settings", "Settings · My Account"],
      ["/user/welcome", "Home · My Account"],
      ["/s/no-such-page", "Page Not Found · My Account"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page, path).toHaveTitle(title);
    }
  });

  test("keeps Sign out on the menu's first row at phone width", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "admin@example.com");
    await page.goto("/s/orders/list");
    const nav = page.getByRole("navigation", { name: "Account" });
    const home = (await nav.getByRole("link", { name: "Home" }).boundingBox())!;
    const security = (await nav.getByRole("link", { name: "Security" }).boundingBox())!;
    const signOut = (await nav.getByRole("button", { name: "Sign out" }).boundingBox())!;
    // The links wrap into rows at this width; Sign out shares the first one, at the right.
    expect(security.y).toBeGreaterThan(home.y + home.height);
    expect(signOut.y).toBeLessThan(home.y + home.height);
    expect(signOut.y + signOut.height).toBeGreaterThan(home.y);
    expect(signOut.x + signOut.width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "nav-phone");
  });

  test("a cancelled or refunded order shows its status where a balance would be, and no shipping to come", async ({
    page,
  }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto("/s/orders/list");
    const table = page.getByRole("table", { name: "Orders, newest first" });
    const balance = (number: string) =>
      table.getByRole("row").filter({ hasText: number }).locator('td[data-label="Balance Due"]');
    await expect(balance("ORD-5005")).toHaveText("Cancelled");
    await expect(balance("ORD-5008")).toHaveText("Refunded");
    await expect(balance("ORD-5003")).toHaveText("$845.72");

    await page.goto("/s/order/details/5005");
    const summary = page.getByLabel("Order summary");
    await expect(summary.locator("div", { hasText: /^Balance Due/ }).locator("dd")).toHaveText("Cancelled");
    await expect(page.getByRole("heading", { name: "Items" })).toBeVisible();
    await expect(page.getByRole("note").filter({ hasText: "not shipped yet" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Shipments" })).toHaveCount(0);
    await shot(page, "order-cancelled");
  });

  test("a quote with nothing to ship offers no shipping address to edit", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await page.goto("/s/quotes/details/QUO-1004");
    await expect(page.getByRole("button", { name: "Edit Billing Address" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit Shipping Address" })).toHaveCount(0);
  });

  test("an order with nothing to ship shows no shipping tracker in its page or the list", async ({
    page,
  }) => {
    // Until the server sends an order's needsShipping (copied from its quote), the test adds
    // it to the answers of a demo order, as the server is to send it.
    const dataOnly = async (route: Route) => {
      const res = await route.fetch();
      const body = await res.json();
      if (body.data.orderDetails) body.data.orderDetails.needsShipping = false;
      for (const o of body.data.orderList ?? []) if (o.id === 5001) o.needsShipping = false;
      await route.fulfill({ response: res, json: body });
    };
    await page.route("**/api/v1/orders/5001", dataOnly);
    await page.route("**/api/v1/orders", dataOnly);
    await signInAs(page, "admin@example.com");
    await page.goto("/s/orders/list");
    const row = page
      .getByRole("table", { name: "Orders, newest first" })
      .getByRole("row")
      .filter({ hasText: "ORD-5001" });
    await expect(row.locator('td[data-label="Shipping"]')).toHaveText("Nothing to ship");

    await page.goto("/s/order/details/5001");
    await expect(page.getByRole("heading", { name: "Items" })).toBeVisible();
    await expect(page.getByLabel("Order summary")).toContainText("Nothing to ship");
    await expect(page.getByRole("list", { name: "Shipping progress" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Shipments" })).toHaveCount(0);
    await expect(page.getByRole("note").filter({ hasText: "not shipped yet" })).toHaveCount(0);
    await shot(page, "order-nothing-to-ship");
  });

  test("the lists and details fit a phone", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "admin@example.com");
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
