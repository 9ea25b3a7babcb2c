import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { deviceIds, hydrated, signInAs } from "./helpers.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { CONFIRM_UNUSABLE } from "../../src/api/visitors.ts";

// The rest of the newcomer's review (a phone 390 px wide, a slow link): the sign-in card usable
// before its script arrives, the alert rule editor's Save in reach and its changes kept from a
// stray Close, a way on from an expired confirm link, and the phone menu's current section.
// Nothing here saves or writes: the shared portal serves.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Holds the islands' scripts until released: the server-rendered page is all there is. */
async function holdScripts(page: Page) {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/_astro/*.js", async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

const weight = (page: Page, name: string) =>
  page
    .getByRole("navigation", { name: "Account" })
    .getByRole("link", { name, exact: true })
    .evaluate((a) => Number(getComputedStyle(a).fontWeight));

test.describe("the newcomer's review, the rest fixed", () => {
  test("takes the sign-in card's Next before the island hydrates and goes on once it does", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    const release = await holdScripts(page);
    await page.goto("/gateway", { waitUntil: "commit" });
    const card = page.getByRole("form", { name: "Account Login" });
    await card.getByLabel("Email").fill("admin@example.com");
    await expect(page.locator("astro-island[ssr]")).not.toHaveCount(0);
    // Not a disabled "Loading..." button: the card's own Next, ready for a press.
    const next = card.getByRole("button", { name: "Next" });
    await expect(next).toBeEnabled();
    const posts: string[] = [];
    page.on("request", (r) => void (r.method() === "POST" && posts.push(new URL(r.url()).pathname)));
    await next.click();
    // Held (and shown busy) while the script is away: the page does not post itself away.
    await expect(next).toHaveAttribute("aria-busy", "true");
    await page.waitForTimeout(500);
    expect(posts).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/gateway");
    release();
    await expect(card.getByLabel("Password")).toBeVisible({ timeout: 30_000 });
    expect(posts).toEqual(["/gateway/check-email"]);
  });

  test("keeps the rule editor's Save on a phone's screen and asks before dropping changes", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "admin@example.com");
    await page.goto("/s/alerts");
    await page.getByRole("button", { name: "New rule" }).click();
    const editor = page.getByRole("dialog", { name: "New alert rule" });
    const form = editor.locator("form");
    // The form's Close beside Save, and the dialog's own close button in its corner.
    const close = form.getByRole("button", { name: "Close" });
    const corner = editor.locator("header").getByRole("button", { name: "Close" });
    // Untouched, Close just closes.
    await close.click();
    await expect(editor).toBeHidden();

    await page.getByRole("button", { name: "New rule" }).click();
    await editor.getByLabel("Name").fill("Cold room");
    expect(await form.evaluate((f) => f.scrollHeight)).toBeGreaterThan(PHONE.height);
    const save = editor.getByRole("button", { name: "Save rule" });
    const box = (await save.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await expect(save).toBeInViewport({ ratio: 1 });

    const ask = page.getByRole("dialog", { name: "Discard unsaved changes?" });
    await close.click();
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Keep editing" }).click();
    await expect(ask).toBeHidden();
    await expect(editor.getByLabel("Name")).toHaveValue("Cold room");

    await editor.getByLabel("Name").press("Escape");
    await expect(ask).toBeVisible();
    // Escape answers "keep editing" too.
    await page.keyboard.press("Escape");
    await expect(ask).toBeHidden();
    // A close the browser forces (Escape with no click or typing since the last one cannot be
    // refused) gives the editor back, and asks.
    await editor.evaluate((d) => (d as HTMLDialogElement).close());
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Keep editing" }).click();
    await expect(editor).toBeVisible();
    await expect(editor.getByLabel("Name")).toHaveValue("Cold room");

    await corner.click();
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Discard" }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByRole("button", { name: "New rule" })).toBeFocused();
  });

  test("asks the browser's question when the tab closes with a rule half written", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await page.goto("/s/alerts");
    await page.getByRole("button", { name: "New rule" }).click();
    await page.getByRole("dialog", { name: "New alert rule" }).getByLabel("Name").fill("Half written");
    const asked = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.accept();
  });

  test("leads an expired confirm link back to the report it names", async ({ page }) => {
    await page.goto(`/visitors/confirm?token=spent-or-expired&report=${DEMO.reportHash}`);
    await expect(page.getByRole("alert")).toHaveText(CONFIRM_UNUSABLE);
    const back = page.getByRole("link", { name: "Open the report to subscribe again" });
    await expect(back).toHaveAttribute("href", `/public/report/${DEMO.reportHash}`);
    await back.click();
    await expect(page).toHaveURL(new RegExp(`/public/report/${DEMO.reportHash}`));

    // An older link names no report: the message alone, no link to nowhere.
    await page.goto("/visitors/confirm?token=spent-or-expired");
    await expect(page.getByRole("alert")).toHaveText(CONFIRM_UNUSABLE);
    await hydrated(page);
    await expect(page.getByRole("link", { name: "Open the report to subscribe again" })).toHaveCount(0);
  });

  test("marks Security in the phone menu on the audit trail, as desktop marks Audit", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await page.setViewportSize(PHONE);
    await page.goto("/s/audit");
    const nav = page.getByRole("navigation", { name: "Account" });
    await expect(nav.getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "true");
    expect(await weight(page, "Security")).toBeGreaterThanOrEqual(700);
    expect(await weight(page, "Alerts")).toBeLessThan(700);

    await page.setViewportSize(DESKTOP);
    await expect(nav.getByRole("link", { name: "Audit" })).toHaveAttribute("aria-current", "page");
    expect(await weight(page, "Audit")).toBeGreaterThanOrEqual(700);
    expect(await weight(page, "Security")).toBeLessThan(700);
  });

  test("marks the list a detail page belongs to in the phone menu", async ({ page }) => {
    await signInAs(page, "admin@example.com");
    await page.setViewportSize(PHONE);
    const id = Object.values(await deviceIds(page))[0]!;
    await page.goto(`/s/devices/${id}`);
    const devices = page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Devices" });
    await expect(devices).toHaveAttribute("aria-current", "true");
    expect(await weight(page, "Devices")).toBeGreaterThanOrEqual(700);
  });
});
