import type { Page } from "@playwright/test";
import type { DialogProps } from "../../islands/ui/Dialog.tsx";
import { badgeOf, badgesOfKind } from "../../src/domain/badges.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";
import { hydrated } from "./helpers.ts";

// A dialog without a name does not compile: the label is part of its type.
// @ts-expect-error neither title nor labelledBy
const unnamed: DialogProps = { open: true, onClose: () => {}, children: null };
void unnamed;

/** Opens the UI kit with every island hydrated, collecting console errors (CSP included). */
async function openKit(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/ui-kit");
  await hydrated(page);
  return errors;
}

/** Where the keyboard focus is: in the dialog, on the browser's own controls, or behind. */
const focusPlace = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "browser";
    return el.closest("dialog") ? `dialog ${el.tagName}` : `behind ${el.tagName} ${el.textContent}`;
  });

test.describe("UI kit", () => {
  test("is a page of its own that search engines skip", async ({ page }) => {
    const res = await page.goto("/ui-kit");
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "UI kit" })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  });

  test("names each status in words, for every kind the domain maps", async ({ page }) => {
    await openKit(page);
    for (const [kind, heading] of [
      ["shipping", "Shipping"],
      ["billing", "Billing"],
      ["push", "Push"],
      ["battery", "Battery"],
    ] as const) {
      const labels = badgesOfKind(kind).map((b) => badgeOf(b).label);
      const region = page.getByRole("region", { name: `${heading} badges` });
      await expect(region.getByRole("listitem")).toHaveText(labels);
    }
    await expect(page.getByRole("region", { name: "In a React island" }).getByText("Paid")).toBeVisible();
  });

  test("shows amounts with two decimals in dollars or euros, and dates as MMM DD, YYYY", async ({ page }) => {
    await openKit(page);
    await expect(page.getByRole("list", { name: "Amounts" }).getByRole("listitem")).toHaveText([
      "$1,234.50",
      "€9,876.54",
    ]);
    const dates = page.getByRole("list", { name: "Dates" }).locator("time");
    await expect(dates).toHaveText(["Nov 05, 2026", "November 5, 2026, 3:07 PM", "Feb 01, 2026"]);
    await expect(dates.first()).toHaveAttribute("datetime", "2026-11-05T15:07:00.000Z");
    const island = page.getByRole("region", { name: "In a React island" });
    await expect(island.getByText("€42.00")).toBeVisible();
    await expect(island.locator("time")).toHaveText("November 5, 2026, 3:07 PM");
  });

  test("shows meaningful icons by name and hides decorative ones from assistive technology", async ({
    page,
  }) => {
    await openKit(page);
    for (const name of ["Up to date", "Warning", "Failed", "Empty"]) {
      await expect(page.getByRole("img", { name })).toBeVisible();
    }
    await expect(page.locator("main svg:not([aria-hidden='true']):not([role='img'])")).toHaveCount(0);
  });

  test("ships only the icons it uses, not the whole set", async ({ page }) => {
    const scripts: Promise<string>[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") scripts.push(r.text());
    });
    await openKit(page);
    const js = (await Promise.all(scripts)).join("\n");
    expect(js).toContain("triangle-alert");
    expect(js).not.toContain("alarm-clock");
  });

  test("shows an empty state with its title, sentence and action", async ({ page }) => {
    await openKit(page);
    await expect(page.getByRole("heading", { name: "No orders yet" })).toBeVisible();
    await expect(page.getByText("Orders you place from a quote appear here.")).toBeVisible();
    await expect(page.getByRole("button", { name: "See products" })).toHaveAttribute("href", "/products");
    await expect(page.getByRole("heading", { name: "No tags yet" })).toBeVisible();
  });

  test("dismisses the static error banner and the island's", async ({ page }) => {
    const errors = await openKit(page);
    const staticBanner = page.getByRole("alert").filter({ hasText: "This link is invalid or has expired." });
    await staticBanner.getByRole("button", { name: "Dismiss" }).click();
    await expect(staticBanner).toHaveCount(0);
    const islandBanner = page.getByRole("alert").filter({ hasText: "The payment could not be completed." });
    await islandBanner.getByRole("button", { name: "Dismiss" }).press("Enter");
    await expect(islandBanner).toHaveCount(0);
    await page.getByRole("button", { name: "Show the error again" }).click();
    await expect(islandBanner).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("disables a busy button and shows its busy label until the work ends", async ({ page }) => {
    await openKit(page);
    await page.getByRole("button", { name: "Sign In" }).click();
    const busy = page.getByRole("button", { name: "Authenticating..." });
    await expect(busy).toBeDisabled();
    await expect(busy).toHaveAttribute("aria-busy", "true");
    await page.getByRole("button", { name: "Finish" }).click();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });
});

test.describe("dialog", () => {
  test("is named by its title and takes the focus in", async ({ page }) => {
    await openKit(page);
    await page.getByRole("button", { name: "Update Location" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Location" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.type("Dock 4");
    await expect(dialog.getByRole("textbox", { name: "Location" })).toHaveValue("Dock 4");
    await expectAccessible(page);
  });

  test("closes on Escape and gives the focus back to its opener", async ({ page }) => {
    await openKit(page);
    const opener = page.getByRole("button", { name: "Update Location" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Update Location" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByText("Closed by itself: 1.")).toBeVisible();
  });

  test("closes with its close button and with its own Done, reporting only its own closing", async ({
    page,
  }) => {
    await openKit(page);
    const opener = page.getByRole("button", { name: "Update Location" });
    const dialog = page.getByRole("dialog", { name: "Update Location" });
    await opener.click();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await opener.click();
    await expect(dialog.getByRole("textbox", { name: "Location" })).toHaveValue("");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByText("Closed by itself: 1.")).toBeVisible();
  });

  test("keeps the page behind out of reach of the mouse and the keyboard while open", async ({ page }) => {
    await openKit(page);
    const knock = page.getByRole("button", { name: "Knock" });
    await knock.click();
    await expect(page.getByText("Knocks: 1.")).toBeVisible();
    const box = (await knock.boundingBox())!;
    await page.getByRole("button", { name: "Update Location" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Location" });
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // Tab and Shift+Tab go round the dialog's own controls, never the page behind, and never
    // off to the browser's controls once a loop.
    for (const key of ["Tab", "Shift+Tab"]) {
      const visited = new Set<string>();
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press(key);
        visited.add(await focusPlace(page));
      }
      expect([...visited].sort()).toEqual(["dialog BUTTON", "dialog INPUT"]);
    }
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByText("Knocks: 1.")).toBeVisible();
  });
});

test.describe("UI kit at 390 px and on a desktop", () => {
  for (const [name, width, height] of [
    ["phone", 390, 844],
    ["desktop", 1280, 900],
  ] as const) {
    test(`fits ${width} px without sideways scrolling and passes the accessibility scan (${name})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await openKit(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/screens/ui-kit-${name}.png`, fullPage: true });
      await page.getByRole("button", { name: "Update Location" }).click();
      await expect(page.getByRole("dialog", { name: "Update Location" })).toBeVisible();
      await page.screenshot({ path: `test-results/screens/ui-kit-dialog-${name}.png` });
    });
  }
});
