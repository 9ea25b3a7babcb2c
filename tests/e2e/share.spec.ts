import { mkdir, readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { describe as describeFinding, failing, scan } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated, linkFromMailbox, signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";
import { pdfText } from "../support/pdfText.ts";
import { demoToken } from "../../server/seed/demo.ts";

// The Share dropdown of the signed-in quote and order pages (issue 11; spec sections 2 and 6):
// Get Link with Copy, Grant Account Access (an invitation, an existing person, a federated
// subscription) and the quote's PDF. What changes nobody else's records runs on the shared
// portal; adding an existing person to Acme, and Northwind made federated, run on a portal of
// their own (port 4417).

const OWN = 4417;
const PHONE = { width: 390, height: 844 };
const SHOTS = "test-results/screens";

/** A screenshot; with a menu or dialog open, the viewport as it shows it. */
async function shot(page: Page, name: string, fullPage = false) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/share-${name}.png`, fullPage });
}

async function openOrder(page: Page, id: number) {
  await page.goto(`/s/order/details/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Order ORD-${id}` })).toBeVisible();
}

test("an Administrator walks the order's Share menu by keyboard, copies its link and reads it back", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, "admin@example.com");
  await openOrder(page, 5003);
  const share = page.getByRole("button", { name: "Share" });
  await expect(share).toHaveAttribute("aria-expanded", "false");
  await share.focus();
  await page.keyboard.press("ArrowDown");
  await expect(share).toHaveAttribute("aria-expanded", "true");
  const entry = (name: string) => page.getByRole("button", { name, exact: true });
  await expect(entry("Get Link To This Order")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(entry("Grant Account Access")).toBeFocused();
  await expect(page.getByRole("link", { name: "Download PDF" })).toHaveCount(0);
  await shot(page, "order-menu-desktop");
  await page.keyboard.press("Escape");
  await expect(share).toHaveAttribute("aria-expanded", "false");
  await expect(share).toBeFocused();

  await page.keyboard.press("Enter");
  await entry("Get Link To This Order").click();
  const dialog = page.getByRole("dialog", { name: "Get Link To This Order" });
  await expect(dialog).toBeVisible();
  const link = dialog.getByLabel("Link");
  // The order's public page, which anyone with the link may open.
  await expect(link).toHaveValue(new RegExp(`/p/order/ORD-5003-${demoToken("order-5003")}$`));
  await expect(link).toHaveAttribute("readonly", "");
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Copied!");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await link.inputValue());
  await shot(page, "link-desktop");
  await page.setViewportSize(PHONE);
  await shot(page, "link-phone");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(share).toBeFocused();
});

test("Grant Account Access invites someone without a profile, whose mail leads to registration", async ({
  page,
}) => {
  const email = `invitee-${Date.now()}@example.com`;
  await signInAs(page, "admin@example.com");
  await openOrder(page, 5003);
  await page.getByRole("button", { name: "Share" }).click();
  await page.getByRole("button", { name: "Grant Account Access" }).click();
  const dialog = page.getByRole("dialog", { name: "Grant Account Access" });
  await expect(dialog.getByLabel("Email Address")).toBeVisible();
  await shot(page, "grant-desktop");
  await page.setViewportSize(PHONE);
  await shot(page, "grant-phone");
  await dialog.getByLabel("Email Address").fill(email);
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("status")).toHaveText(`Invite sent to ${email}`);
  await shot(page, "grant-sent-phone");

  const invitation = await linkFromMailbox(page, email);
  await page.goto(invitation);
  await hydrated(page);
  await expect(page.getByRole("form", { name: "Validate your account" })).toContainText(email);
});

test("an Administrator downloads an open quote's PDF from its Share menu", async ({ page }) => {
  await signInAs(page, "admin@example.com");
  await page.goto("/s/quotes/details/QUO-1001");
  await expect(page.getByRole("heading", { level: 1, name: "Quote QUO-1001" })).toBeVisible();
  // An open quote first asks to verify its shipping address (helper U1's dialog).
  const verify = page.getByRole("dialog", { name: "Verify Shipping Address" });
  await expect(verify).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(verify).toBeHidden();
  await page.getByRole("button", { name: "Share" }).click();
  await expect(page.getByRole("button", { name: "Get Link To This Quote" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Grant Account Access" })).toBeVisible();
  await shot(page, "quote-menu-desktop");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download PDF" }).click(),
  ]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
  const text = pdfText(bytes);
  expect(text).toContain("QUO-1001");
  // The menu closes on its own and the keyboard goes on from the Share button.
  await expect(page.getByRole("button", { name: "Share" })).toBeFocused();
  await page.setViewportSize(PHONE);
  await page.getByRole("button", { name: "Share" }).click();
  await shot(page, "quote-menu-phone");
});

test("a Billing user gets Get Link alone, as a button", async ({ page }) => {
  await signInAs(page, "billing@example.com");
  await openOrder(page, 5003);
  await expect(page.getByRole("button", { name: "Share" })).toHaveCount(0);
  await page.getByRole("button", { name: "Get Link To This Order" }).click();
  await expect(page.getByRole("dialog", { name: "Get Link To This Order" })).toBeVisible();
});

test.describe("on a portal of its own", () => {
  onOwnPortal(OWN, { federatedNorthwind: true });

  test("Grant Account Access adds someone who has a profile at once and mails them", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await openOrder(page, 5001);
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByRole("button", { name: "Grant Account Access" }).click();
    const dialog = page.getByRole("dialog", { name: "Grant Account Access" });
    await dialog.getByLabel("Email Address").fill("owner@northwind.example.com");
    await dialog.getByRole("button", { name: "Send Invite" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Invite sent to owner@northwind.example.com");
    const found = (await scan(page)).filter(failing).map(describeFinding);
    expect(found, "accessibility violations (axe)").toEqual([]);
    await page.goto("/dev/mailbox");
    await expect(
      page
        .locator("article", { hasText: "To owner@northwind.example.com" })
        .filter({ hasText: "You now have access" }),
    ).toHaveCount(1);
  });

  test("a federated subscription is told to grant access through its identity provider", async ({ page }) => {
    test.slow();
    await page.goto("/gateway");
    await hydrated(page);
    await page.getByLabel("Email").fill("owner@northwind.example.com");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Test IdP" })).toBeVisible();
    await page.getByLabel("Email").fill("owner@northwind.example.com");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Continue to the portal" }).click();
    await page.waitForURL(/\/user\/welcome$/);
    await openOrder(page, 5012);
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByRole("button", { name: "Grant Account Access" }).click();
    const dialog = page.getByRole("dialog", { name: "Grant Account Access" });
    await expect(dialog.getByRole("status")).toHaveText(
      "Because your organization has a federated account, access can only be granted through your identity provider.",
    );
    await expect(dialog.getByLabel("Email Address")).toHaveCount(0);
    await shot(page, "grant-federated-desktop");
  });
});
