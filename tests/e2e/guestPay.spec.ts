import type { Locator, Page } from "@playwright/test";
import { DEMO, demoHexToken, demoToken } from "../../server/seed/demo.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";
import { hydrated } from "./helpers.ts";

// Pay as guest (spec sections 2, 4, 5). The demo records these tests change: order 5007
// (New) is paid in full, quote 1004 (euros, no shipping address) becomes an order. The other
// tests only read, or are declined (which stores nothing), so they can run in any order.
const SHOTS = "/tmp/shots-F";
const PHONE = { width: 390, height: 844 };
const orderRef = (id: number) => `ORD-${id}-${demoToken(`order-${id}`)}`;
const payOrderPath = (id: number) => `/p/order/pay-as-guest/${orderRef(id)}`;
const payQuotePath = (token: string) => `/p/quote/pay-as-guest/${token}`;
const GOOD_CARD = "4242 4242 4242 4242";
const YEAR = new Date().getFullYear();

/** The value beside a label in the page's facts (a description list). */
const fact = (scope: Page | Locator, name: string) =>
  scope
    .locator(".facts > div")
    .filter({ has: scope.locator("dt", { hasText: new RegExp(`^${name}$`) }) })
    .locator("dd");

async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
  await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
}

/** Fills the card form by label; the expiry is always in the future. */
async function fillCard(page: Page, number: string, cvv = "123", email = "guest@example.com") {
  const form = page.getByRole("form", { name: "Pay by Card" });
  await form.getByLabel("Card Number").fill(number);
  await form.getByLabel("Expiration Month").selectOption("12");
  await form.getByLabel("Expiration Year").selectOption(String(YEAR + 1));
  await form.getByLabel("CCV").fill(cvv);
  await form.getByLabel("Email").fill(email);
  return form;
}

const noSideScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

test.describe("an order", () => {
  test("shows the order read-only with items, shipments, payments, balance and due date", async ({
    page,
  }) => {
    await open(page, payOrderPath(DEMO.orderId));
    await expect(page.getByRole("heading", { level: 1, name: "Submit Payment" })).toBeVisible();
    await expect(fact(page, "Order Number")).toHaveText(`ORD-${DEMO.orderId}`);
    await expect(fact(page, "Order Placed On")).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expect(fact(page, "Billing Status")).toHaveText("Open");
    await expect(fact(page, "PO Number")).toHaveText("PO-88177");
    await expect(fact(page, "Due Date")).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    const items = page.getByRole("table", { name: "Items" });
    await expect(items.getByRole("row")).toHaveCount(4);
    await expect(items.getByRole("row", { name: /WS-TH/ })).toContainText("10%");
    const shipments = page.getByRole("region", { name: "Shipments" });
    await expect(shipments.getByRole("heading", { name: /^Shipment \d of 2$/ })).toHaveCount(2);
    await expect(shipments).toContainText(/1Z999AA15003/);
    await expect(page.getByRole("region", { name: "Payments" })).toContainText("Visa ending in 4242");
    const balance = await fact(page, "Balance Due").textContent();
    const form = page.getByRole("form", { name: "Pay by Card" });
    await expect(form.getByRole("button", { name: `Pay ${balance}` })).toBeEnabled();
    await expect(form.getByLabel("Card Number")).toHaveAttribute("inputmode", "numeric");
    await expect(form.getByLabel("Card Number")).toHaveAttribute("autocomplete", "cc-number");
    await expect(form.getByLabel("CCV")).toHaveAttribute("autocomplete", "cc-csc");
    await expect(form.getByLabel("Expiration Month")).toHaveValue("01");
    await expect(form.getByLabel("Expiration Month").getByRole("option")).toHaveCount(12);
    await expect(form.getByLabel("Expiration Year")).toHaveValue(String(YEAR));
    const years = form.getByLabel("Expiration Year").getByRole("option");
    await expect(years).toHaveCount(30);
    await expect(years.last()).toHaveText(String(YEAR + 29));
    await page.screenshot({ path: `${SHOTS}/pay-order-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await noSideScroll(page);
    await page.screenshot({ path: `${SHOTS}/pay-order-phone.png`, fullPage: true });
  });

  test("pays the balance by keyboard: Payment Complete, then Paid on the page and after a reload", async ({
    page,
  }) => {
    await open(page, payOrderPath(5007));
    const balance = (await fact(page, "Balance Due").textContent())!;
    await page.getByRole("form", { name: "Pay by Card" }).getByLabel("Card Number").focus();
    await page.keyboard.type(GOOD_CARD);
    await page.keyboard.press("Tab"); // month: 01 → 02
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab"); // year: next year
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await page.keyboard.type("123");
    await page.keyboard.press("Tab");
    await page.keyboard.type("guest@example.com");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Payment Complete" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`payment of ${balance} with Visa ending in 4242`);
    await expect(dialog).toContainText("A receipt is on its way to guest@example.com.");
    const receipt = dialog.getByRole("link", { name: "Download the receipt (PDF)" });
    const href = (await receipt.getAttribute("href"))!;
    expect(href).toMatch(new RegExp(`^/order/public/${orderRef(5007)}/receipt/\\d+$`));
    const pdf = await page.request.get(href);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/payment-complete-desktop.png` });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/payment-complete-phone.png` });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const paidNote = page.getByText("This order has no balance due.");
    await expect(paidNote).toBeFocused();
    await expect(fact(page, "Billing Status")).toHaveText("Paid");
    await expect(fact(page, "Balance Due")).toHaveText("$0.00");
    await expect(page.getByRole("form", { name: "Pay by Card" })).toHaveCount(0);
    await page.reload();
    await hydrated(page);
    await expect(fact(page, "Billing Status")).toHaveText("Paid");
    await expect(fact(page, "Balance Due")).toHaveText("$0.00");
    await expect(page.getByText("This order has no balance due.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Payments" })).toContainText("Visa ending in 4242");
  });

  test("puts a missing email, a declined card and a wrong CVC beside their fields", async ({ page }) => {
    await open(page, payOrderPath(DEMO.orderId));
    const form = await fillCard(page, GOOD_CARD, "123", "");
    await form.getByRole("button", { name: /^Pay / }).click();
    await expect(form.getByLabel("Email")).toHaveAccessibleDescription("Invalid email address.");
    await expect(form.getByLabel("Email")).toBeFocused();
    await fillCard(page, "4000 0000 0000 0002");
    await form.getByRole("button", { name: /^Pay / }).click();
    await expect(form.getByLabel("Card Number")).toHaveAccessibleDescription(CARD_MESSAGES.declined);
    await expect(form.getByLabel("Card Number")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    await page.screenshot({ path: `${SHOTS}/pay-order-declined.png` });
    await fillCard(page, "4000 0000 0000 0127");
    await page.keyboard.press("Enter");
    await expect(form.getByLabel("CCV")).toHaveAccessibleDescription(CARD_MESSAGES.wrongCvv);
    await expect(form.getByLabel("CCV")).toBeFocused();
    await expect(form.getByLabel("Card Number")).not.toHaveAttribute("aria-invalid", "true");
    await expect(fact(page, "Billing Status")).toHaveText("Open");
  });

  test("reads 'Processing...' and sends one payment however often it is pressed", async ({ page }) => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    let sent = 0;
    await page.route("**/pay-amount-due", async (route) => {
      sent++;
      await held;
      await route.continue();
    });
    await open(page, payOrderPath(DEMO.orderId));
    const form = await fillCard(page, "4000 0000 0000 0002");
    await page.keyboard.press("Enter");
    const busy = form.getByRole("button", { name: "Processing..." });
    await expect(busy).toBeDisabled();
    await page.keyboard.press("Enter");
    await busy.click({ force: true });
    answer();
    await expect(form.getByLabel("Card Number")).toHaveAccessibleDescription(CARD_MESSAGES.declined);
    expect(sent).toBe(1);
  });

  test("shows no card form for a paid or a cancelled order, and says why", async ({ page }) => {
    await open(page, payOrderPath(5004));
    await expect(page.getByText("This order has no balance due.")).toBeVisible();
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
    await open(page, payOrderPath(5005));
    await expect(fact(page, "Billing Status")).toHaveText("Cancelled");
    await expect(page.getByText("This order cannot be paid online.")).toBeVisible();
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
  });

  test("shows a dismissible banner for a wrong order link", async ({ page }) => {
    await open(page, `/p/order/pay-as-guest/ORD-${DEMO.orderId}-wrongValidationId`);
    const banner = page.getByRole("alert");
    await expect(banner).toHaveText(/Unexpected Error retrieving order\./);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/pay-order-bad-link-phone.png` });
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Quote and Order Lookup" }).last()).toHaveAttribute(
      "href",
      "/p/order-quote/search",
    );
  });
});

test("says which link opens the payment page when the address has only a number", async ({ page }) => {
  await open(page, `/p/quote/pay-as-guest/QUO-${DEMO.openQuoteId}`);
  const note = page.getByRole("status");
  await expect(note).toContainText(`QUO-${DEMO.openQuoteId} is the quote's number.`);
  await expect(note).toContainText("the link in the email we sent about this quote");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(note.getByRole("link", { name: "Quote and Order Lookup" })).toHaveAttribute(
    "href",
    "/p/order-quote/search",
  );
  await expect(note.getByRole("link", { name: `QUO-${DEMO.openQuoteId}` })).toHaveAttribute(
    "href",
    `/p/quote/QUO-${DEMO.openQuoteId}`,
  );
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/pay-quote-number-only-phone.png` });
  await open(page, `/p/order/pay-as-guest/${DEMO.orderId}`);
  await expect(page.getByRole("status")).toContainText(`ORD-${DEMO.orderId} is the order's number.`);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test.describe("a quote", () => {
  test("shows the open quote read-only: specialist, addresses, line totals and grand total", async ({
    page,
  }) => {
    await open(page, payQuotePath(DEMO.openQuoteToken));
    await expect(page.getByRole("heading", { level: 1, name: "Place your Order" })).toBeVisible();
    await expect(fact(page, "Quote Number")).toHaveText(`QUO-${DEMO.openQuoteId}`);
    await expect(fact(page, "Status")).toHaveText(/^Expires at [A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expect(fact(page, "Product Specialist")).toContainText("Sam Rivera");
    await expect(
      fact(page, "Product Specialist").getByRole("link", { name: "800-555-0199" }),
    ).toHaveAttribute("href", "tel:8005550199");
    await expect(fact(page, "Product Specialist")).toContainText("ext. 214");
    await expect(page.getByRole("region", { name: "Shipping Address" })).toContainText(
      "100 Research Park Dr",
    );
    await expect(page.getByRole("region", { name: "Billing Address" })).toContainText("United States");
    await expect(page.getByRole("table", { name: "Items" }).getByRole("row").nth(1)).toContainText("$");
    await expect(page.getByLabel("Totals")).toContainText("Grand Total");
    await expect(page.getByRole("form", { name: "Pay by Card" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/pay-quote-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await noSideScroll(page);
    await page.screenshot({ path: `${SHOTS}/pay-quote-phone.png`, fullPage: true });
  });

  test("orders a quote as a guest and lands on the new order's page", async ({ page }) => {
    await open(page, payQuotePath(demoHexToken("quote-1004")));
    await expect(page.getByRole("region", { name: "Shipping Address" })).toHaveText(
      "Shipping AddressNo Address",
    );
    await expect(fact(page, "Quote Number")).toHaveText("QUO-1004");
    const total = page.getByLabel("Totals").locator("div").last().locator("dd");
    await expect(total).toHaveText(/^€/);
    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: `Pay ${await total.textContent()}` }).click();
    await expect(page).toHaveURL(/\/p\/order\/ORD-\d+-[A-Za-z0-9_-]{22,}$/);
  });

  test("shows no card form for a closed or an expired quote, and says why", async ({ page }) => {
    await open(page, payQuotePath(DEMO.closedQuoteToken));
    await expect(fact(page, "Status")).toHaveText("Closed");
    await expect(page.getByText("This quote is closed.")).toBeVisible();
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
    await open(page, payQuotePath(DEMO.expiredQuoteToken));
    await expect(page.getByText("This quote has expired.")).toBeVisible();
    await expect(page.getByLabel("Card Number")).toHaveCount(0);
  });

  // A quote number alone is not a failure: see "says which link opens the payment page".
  test("shows a dismissible banner for a bad token", async ({ page }) => {
    for (const id of ["abc", "0123456789abcdef0123456789abcdef"]) {
      await open(page, payQuotePath(id));
      const banner = page.getByRole("alert");
      await expect(banner).toHaveText(/Unexpected Error retrieving quote\./);
      await banner.getByRole("button", { name: "Dismiss" }).click();
      await expect(page.getByRole("alert")).toHaveCount(0);
    }
    await page.screenshot({ path: `${SHOTS}/pay-quote-bad-link-desktop.png` });
  });
});
