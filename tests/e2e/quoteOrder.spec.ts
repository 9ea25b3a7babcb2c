import { mkdir } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { UPLOAD_MESSAGES } from "../../server/services/uploads.ts";
import { QUOTE_ORDER_MESSAGES } from "../../src/api/quoteOrder.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { expect, test } from "./fixtures.ts";
import { signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";

// Ordering a quote signed in (issue 11): the verify-address dialog, the Shipping Address dialog
// with its rates (tax and totals follow), paying by card and on terms with a PO file, a
// renamed executable refused, and the page as a Viewer and for a closed quote. The tests that
// place an order do it on a portal of their own (port 4418), so the shared portal's quotes and
// order lists stay as the other specs expect; the rest only read QUO-1001.

const PHONE = { width: 390, height: 844 };
const SHOTS = "test-results/screens";
const READ_ONLY_QUOTE = "/s/quotes/details/QUO-1001";
const OWN = 4418;
/** The open euro quote that ships nothing: ordered on terms on the own portal. */
const TERMS_QUOTE = "/s/quotes/details/QUO-1004";
const CLOSED_QUOTE = "/s/quotes/details/QUO-1002";
/** Open, but its date passed 15 days ago. */
const EXPIRED_QUOTE = "/s/quotes/details/QUO-1003";

async function shot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Opens a quote signed in and waits for its page. */
async function openQuote(page: Page, email: string, path: string) {
  await signInAs(page, email);
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: /^Quote QUO-/ })).toBeVisible();
}

const verifyDialog = (page: Page) => page.getByRole("dialog", { name: "Verify Shipping Address" });
const shippingDialog = (page: Page) => page.getByRole("dialog", { name: "Shipping Address" });
/** The amount shown on a Totals row (Shipping's label names its method: 'Shipping (UPS Ground)'). */
const total = (page: Page, label: string | RegExp) =>
  page
    .getByLabel("Totals")
    .locator("div", { has: page.getByRole("term").getByText(label, { exact: true }) })
    .getByRole("definition");
const SHIPPING = /^Shipping( \(.+\))?$/;
/** The polite line that says the shipping price changed. */
const shippingNote = (page: Page) => page.getByRole("status").filter({ hasText: /^Shipping changed/ });

/** Confirms the quote's own address: its own carrier and method are chosen, then the tax. */
async function confirmAddress(page: Page) {
  await verifyDialog(page).getByRole("button", { name: "Confirm Address" }).click();
  await expect(verifyDialog(page)).toBeHidden();
  await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
}

/** Presses Tab until the target has the focus (at most `max` times). */
async function tabTo(page: Page, target: Locator, max = 30) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test.describe("ordering a quote signed in", () => {
  test("editing the shipping address and picking a rate updates the tax and totals", async ({ page }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await expect(verifyDialog(page)).toBeVisible();
    await expect(verifyDialog(page)).toContainText("100 Research Park Dr");
    await shot(page, "quote-verify-dialog");
    await verifyDialog(page).getByRole("button", { name: "Edit Address" }).click();

    const dialog = shippingDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /UPS Ground/ })).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /USPS Priority Mail/ })).toBeDisabled();
    await expect(dialog.getByRole("combobox", { name: "State" })).toHaveValue("MA");
    const save = dialog.getByRole("button", { name: "Save Address" });
    await expect(save).toBeDisabled();

    await dialog.getByLabel("Address Line 1").fill("1 New Dock Rd");
    await expect(dialog.getByRole("radio")).toHaveCount(0);
    await expect(save).toBeDisabled();
    await dialog.getByRole("button", { name: "Get Shipping Rates" }).click();
    await dialog.getByRole("radio", { name: /UPS Ground/ }).check();
    await expect(save).toBeEnabled();
    await shot(page, "quote-address-dialog");
    const taxBefore = await total(page, "Tax").textContent();
    await save.click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Shipping Address" })).toContainText("1 New Dock Rd");
    await expect(total(page, "Shipping (UPS Ground)")).toHaveText("$32.45");
    await expect(shippingNote(page)).toHaveText(
      "Shipping changed from $29.95 to $32.45 (UPS Ground) for the new address.",
    );
    // The dialog's opener (Edit Address in the verify dialog) is gone: its Edit button takes the focus.
    await expect(page.getByRole("button", { name: "Edit Shipping Address" })).toBeFocused();
    await expect(total(page, "Tax")).not.toHaveText(taxBefore ?? "");
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
    await shot(page, "quote-order-desktop");
  });

  test("changing the country clears state and city, and the zip problem shows at its field", async ({
    page,
  }) => {
    await openQuote(page, "manager@example.com", READ_ONLY_QUOTE);
    await verifyDialog(page).getByRole("button", { name: "Edit Address" }).click();
    const dialog = shippingDialog(page);
    await dialog.getByRole("combobox", { name: "Country" }).selectOption({ label: "Germany" });
    await expect(dialog.getByLabel("City")).toHaveValue("");
    await expect(dialog.getByRole("textbox", { name: "State" })).toHaveValue("");
    await dialog.getByRole("combobox", { name: "Country" }).selectOption({ label: "United States" });
    await dialog.getByLabel("City").fill("Boston");
    await dialog.getByRole("combobox", { name: "State" }).selectOption({ label: "Massachusetts" });
    await dialog.getByLabel("Zip").fill("2110");
    await dialog.getByRole("button", { name: "Get Shipping Rates" }).click();
    await expect(dialog.getByLabel("Zip")).toHaveAccessibleDescription("Enter a valid ZIP code.");
  });

  test("refuses an executable renamed .png with the server's message at the file field", async ({ page }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await confirmAddress(page);
    await page.getByRole("radio", { name: "Pay on Terms" }).check();
    await page.getByLabel("PO Number").fill("PO-1");
    await page.getByLabel("Purchase Order File").setInputFiles({
      name: "po.png",
      mimeType: "image/png",
      buffer: Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00", "latin1"), Buffer.alloc(64)]),
    });
    await page.getByRole("button", { name: "Pay on Terms" }).click();
    await expect(page.getByLabel("Purchase Order File")).toHaveAccessibleDescription(UPLOAD_MESSAGES.content);
    await expect(page).toHaveURL(/QUO-1001$/);
  });

  test("Confirm Address names the shipping method, says its price changed and offers the others", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await confirmAddress(page);
    // Nothing opened the verify dialog (it opens with the page): the Payment heading takes the focus.
    await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
    await expect(total(page, "Shipping (UPS 2nd Day Air)")).toHaveText("$57.95");
    await expect(shippingNote(page)).toHaveText(
      "Shipping changed from $29.95 to $57.95 (UPS 2nd Day Air) at today's rate for this address.",
    );
    await shot(page, "quote-shipping-note-desktop");
    const another = page.getByRole("button", { name: "Choose Another Shipping Option" });
    await another.click();
    const dialog = shippingDialog(page);
    await dialog.getByRole("radio", { name: /UPS Ground/ }).check();
    await dialog.getByRole("button", { name: "Save Address" }).click();
    await expect(dialog).toBeHidden();
    await expect(another).toBeFocused();
    await expect(total(page, "Shipping (UPS Ground)")).toHaveText("$32.45");
    await expect(shippingNote(page)).toHaveText("Shipping changed from $57.95 to $32.45 (UPS Ground).");
  });

  test("Enter in PO Number sends the card form, and the default expiry is refused at once at its field", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await confirmAddress(page);
    // Mid-June of the year the form offers: its default 01 of this year is past, also in January.
    await page.clock.setFixedTime(new Date(new Date().getFullYear(), 5, 15, 12));
    const orders: string[] = [];
    page.on("request", (r) => r.url().endsWith("/quote/order") && orders.push(r.url()));
    await page.getByLabel("Card Number").fill("4242 4242 4242 4242");
    await page.getByLabel("CCV").fill("123");
    await page.getByLabel("PO Number (optional)").fill("PO-9");
    await page.keyboard.press("Enter");
    // The year is this one, so the month is what is wrong.
    const month = page.getByLabel("Expiration Month");
    await expect(month).toBeFocused();
    await expect(month).toHaveAttribute("aria-invalid", "true");
    await expect(month).toHaveAccessibleDescription(CARD_MESSAGES.expired);
    expect(orders).toEqual([]);
  });

  test("the terms form holds every field: Enter sends it, and the server's field error takes the focus", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await confirmAddress(page);
    await page.getByRole("radio", { name: "Pay on Terms" }).check();
    const terms = page.getByRole("form", { name: "Pay on Terms" });
    await terms.getByLabel("Purchase Order File").setInputFiles({
      name: "po.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("po,amount\nPO-1,1.00\n"),
    });
    await terms.getByLabel("Contact Phone (optional)").fill("call me");
    await terms.getByLabel("PO Number").fill("PO-1");
    await page.keyboard.press("Enter");
    const phone = terms.getByLabel("Contact Phone (optional)");
    await expect(phone).toBeFocused();
    await expect(phone).toHaveAccessibleDescription(QUOTE_ORDER_MESSAGES.contactPhone);
    await expect(page).toHaveURL(/QUO-1001$/);
  });

  test("an expired quote says it expired, and Invite sent keeps the focus in Grant Account Access", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", EXPIRED_QUOTE);
    await expect(page.getByLabel("Quote summary")).toContainText(/Expires at \w{3} \d{2}, \d{4}/);
    await expect(page.getByText("This quote has expired.")).toBeVisible();
    const share = page.getByRole("button", { name: "Share" });
    await share.click();
    await page.getByRole("button", { name: "Grant Account Access" }).click();
    const dialog = page.getByRole("dialog", { name: "Grant Account Access" });
    const email = `quote-invitee-${Date.now()}@example.com`;
    await dialog.getByLabel("Email Address").fill(email);
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("status")).toHaveText(`Invite sent to ${email}`);
    await expect(dialog.getByRole("status")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(share).toBeFocused();
  });

  test("a Viewer sees the quote with no payment form, no edit and no verify dialog", async ({ page }) => {
    await openQuote(page, "viewer@example.com", READ_ONLY_QUOTE);
    await expect(page.getByRole("region", { name: "Shipping Address" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
    await expect(verifyDialog(page)).toHaveCount(0);
  });

  test("a closed quote shows no payment form and no edit, and links to the order it became", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", CLOSED_QUOTE);
    await expect(page.getByLabel("Quote summary")).toContainText("Closed");
    await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
    await page.getByLabel("Quote summary").getByRole("link", { name: "ORD-5001" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Order ORD-5001" })).toBeVisible();
  });

  test("the address dialog works with the keyboard alone", async ({ page }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await expect(verifyDialog(page)).toBeVisible();
    await tabTo(page, verifyDialog(page).getByRole("button", { name: "Edit Address" }));
    await page.keyboard.press("Enter");
    const dialog = shippingDialog(page);
    await expect(dialog.getByRole("radio", { name: /UPS Ground/ })).toBeVisible();
    await tabTo(page, dialog.getByLabel("Address Line 1"));
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("2 Harbor Way");
    await tabTo(page, dialog.getByRole("button", { name: "Get Shipping Rates" }));
    await page.keyboard.press("Enter");
    const ground = dialog.getByRole("radio", { name: /UPS Ground/ });
    await expect(ground).toBeVisible();
    await tabTo(page, dialog.getByRole("radio").and(dialog.locator(":enabled")).first());
    await page.keyboard.press("Space");
    await expect(ground).toBeChecked();
    await tabTo(page, dialog.getByRole("button", { name: "Save Address" }));
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Shipping Address" })).toContainText("2 Harbor Way");
    await expect(total(page, SHIPPING)).toHaveText("$32.45");
  });

  test("the page and its dialogs fit a phone", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await expect(verifyDialog(page)).toBeVisible();
    await shot(page, "quote-verify-dialog-phone");
    await verifyDialog(page).getByRole("button", { name: "Edit Address" }).click();
    await expect(shippingDialog(page).getByRole("radio", { name: /UPS Ground/ })).toBeVisible();
    await shot(page, "quote-address-dialog-phone");
    await page.keyboard.press("Escape");
    await expect(shippingDialog(page)).toBeHidden();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "quote-order-phone");
  });
});

test.describe("ordering on a portal of its own", () => {
  onOwnPortal(OWN);

  test("pays a quote by card: Payment Complete, then the confirmation with a link to the new order", async ({
    page,
  }) => {
    await openQuote(page, "admin@example.com", READ_ONLY_QUOTE);
    await confirmAddress(page);
    await page.getByLabel("Card Number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiration Month").selectOption("12");
    await page.getByLabel("Expiration Year").selectOption(String(new Date().getFullYear() + 2));
    await page.getByLabel("CCV").fill("123");
    const pay = page.getByRole("button", { name: /^Pay \$/ });
    const amount = (await pay.textContent())!.replace("Pay ", "");
    await pay.click();
    const done = page.getByRole("dialog", { name: "Payment Complete" });
    await expect(done).toContainText(`We received your payment of ${amount} with Visa ending in 4242.`);
    await expect(done.getByRole("link", { name: "Download the receipt (PDF)" })).toHaveAttribute(
      "href",
      /\/order\/public\/ORD-\d+-[^/]+\/receipt\/\d+$/,
    );
    // Placing the order led to the order's page (spec section 4), the dialog over it.
    await expect(page).toHaveURL(/\/s\/order\/details\/ORD-\d+$/);
    const number = /ORD-(\d+)$/.exec(page.url())![1];
    await expect(page.getByRole("heading", { level: 1, name: `Order ORD-${number}` })).toBeVisible();
    await shot(page, "quote-paid-dialog-desktop");
    await done.getByRole("button", { name: "Close" }).last().click();
    await expect(done).toBeHidden();
    const note = page.getByRole("status").filter({
      hasText: new RegExp(`^Thank you: your order ORD-${number} is placed and paid by card\\.$`),
    });
    await expect(note).toBeFocused();
    await expect(page.getByLabel("Order summary")).toContainText("Paid");
    await shot(page, "quote-ordered-desktop");
    // Back on the quote: closed, no payment form, and it names the order it became.
    await page.goBack();
    await expect(page.getByLabel("Quote summary")).toContainText("Closed");
    await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
    await expect(
      page.getByLabel("Quote summary").getByRole("link", { name: `ORD-${number}` }),
    ).toHaveAttribute("href", `/s/order/details/ORD-${number}`);
  });

  test("pays a quote on terms with a PO file and confirms it, on a phone", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await openQuote(page, "billing@example.com", TERMS_QUOTE);
    await page.getByRole("radio", { name: "Pay on Terms" }).check();
    const pay = page.getByRole("button", { name: "Pay on Terms" });
    await expect(pay).toBeDisabled();
    await expect(page.getByLabel("Purchase Order File")).toHaveAttribute(
      "accept",
      ".doc,.docx,.xml,.txt,.png,.jpg,.csv",
    );
    await page.getByLabel("PO Number").fill("PO-4711");
    await page.getByLabel("Purchase Order File").setInputFiles({
      name: "po.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("po,amount\nPO-4711,1200.00\n"),
    });
    await expect(pay).toBeEnabled();
    await pay.click();
    await expect(page).toHaveURL(/\/s\/order\/details\/ORD-\d+$/);
    const note = page
      .getByRole("status")
      .filter({ hasText: /^Thank you: your order ORD-\d+ is placed on terms/ });
    await expect(note).toBeFocused();
    await expect(note).toHaveText(/with purchase order PO-4711; it will be invoiced\.$/);
    await expect(page.getByRole("dialog", { name: "Payment Complete" })).toBeHidden();
    await expect(page.getByLabel("Order summary")).toContainText("PO-4711");
    await shot(page, "quote-ordered-terms-phone");
  });
});
