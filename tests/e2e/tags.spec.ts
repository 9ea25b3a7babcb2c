import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";

// The tags page and the Update Tags dialog as a person uses them. Other specs share the demo
// data, so these make tags of their own (a random suffix), put them on a device and take
// everything away again at the end.

const shot = (name: string) => `test-results/screens/tags-${name}.png`;
const DEVICE = "Freezer Monitor";
const suffix = () => Math.random().toString(36).slice(2, 7);

async function openTagsPage(page: Page) {
  await page.goto("/s/guidance/tags");
  await expect(page.getByRole("heading", { name: "Tags", level: 1 })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole("list", { name: "Tags" })).toBeVisible();
}

/** The device's tags as its row on the tags page shows them. */
const deviceRow = (page: Page) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: DEVICE }) })
    .locator(".tag-list");
const tagRow = (page: Page, name: string) =>
  page
    .getByRole("list", { name: "Tags" })
    .getByRole("listitem")
    .filter({ has: page.getByLabel(`Name of tag ${name}`) });

async function openDialog(page: Page) {
  await page.getByRole("button", { name: `Update tags of ${DEVICE}` }).click();
  const dialog = page.getByRole("dialog", { name: "Update Tags" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("checkbox").first()).toBeVisible();
  return dialog;
}

test("an Administrator adds, renames, applies with the dialog, and deletes tags", async ({ page }) => {
  const first = `E2E Alpha ${suffix()}`;
  const renamed = `E2E Beta ${suffix()}`;
  const created = `E2E Gamma ${suffix()}`;
  await signInAs(page, "admin@example.com");
  await openTagsPage(page);

  // Add one with the keyboard: type, Enter.
  await page.getByLabel("New tags").fill(first);
  await page.keyboard.press("Enter");
  await expect(tagRow(page, first)).toContainText("0 devices");
  await expect(page.getByLabel("New tags")).toHaveValue("");

  // Rename: Escape puts the name back; Enter saves the trimmed new one.
  const name = page.getByLabel(`Name of tag ${first}`);
  await name.fill("Something else");
  await name.press("Escape");
  await expect(name).toHaveValue(first);
  await name.fill(`  ${renamed} `);
  await name.press("Enter");
  await expect(page.getByLabel(`Name of tag ${renamed}`)).toHaveValue(renamed);
  await expect(tagRow(page, renamed).getByRole("status")).toHaveText("Saved");
  // Under the field, not over it, and not in the error colour.
  const savedBox = (await tagRow(page, renamed).getByRole("status").boundingBox())!;
  const fieldBox = (await page.getByLabel(`Name of tag ${renamed}`).boundingBox())!;
  expect(savedBox.y).toBeGreaterThanOrEqual(fieldBox.y + fieldBox.height);
  const colour = await tagRow(page, renamed)
    .getByRole("status")
    .evaluate((el) => getComputedStyle(el).color);
  expect(colour).not.toBe("rgb(136, 57, 53)");
  // A name in use is refused beside the tag, whatever its case.
  await page.getByLabel(`Name of tag ${renamed}`).fill("lab");
  await page.getByLabel(`Name of tag ${renamed}`).press("Enter");
  await expect(tagRow(page, renamed).getByRole("alert")).toHaveText('A tag named "lab" already exists.');
  await page.getByLabel(`Name of tag ${renamed}`).press("Escape");
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel(`Name of tag ${renamed}`)).toHaveValue(renamed);

  // The dialog: search by prefix, any case.
  const dialog = await openDialog(page);
  await expect(dialog.getByRole("link", { name: "Manage" })).toHaveAttribute("href", "/s/guidance/tags");
  await expect(dialog.getByRole("checkbox", { name: "Freezer" })).toBeChecked();
  const search = dialog.getByRole("searchbox", { name: "Search tags" });
  await search.fill("e2e beta");
  await expect(dialog.getByRole("checkbox")).toHaveCount(1);
  const box = dialog.getByRole("checkbox", { name: renamed });
  await expect(box).not.toBeChecked();
  // The tri-state cycle with the keyboard: unchecked → checked → unchecked → checked.
  await box.focus();
  await page.keyboard.press("Space");
  await expect(box).toBeChecked();
  await page.keyboard.press("Space");
  await expect(box).not.toBeChecked();
  await page.keyboard.press("Space");
  await expect(box).toBeChecked();

  // Create tag: disabled for a name in use (any case), then made and checked.
  const create = dialog.getByRole("button", { name: "Create tag" });
  await search.fill("FREEZER");
  await expect(create).toBeDisabled();
  await search.fill(created);
  await expect(create).toBeEnabled();
  await expect(dialog.getByText(`No tag starts with “${created}”. Create tag adds it.`)).toBeVisible();
  await search.press("Enter");
  await expect(dialog.getByRole("checkbox", { name: created })).toBeChecked();
  await search.fill("");
  await expect(dialog.getByRole("checkbox", { name: renamed })).toBeChecked();
  // Freezer comes off: checked → unchecked sends it in the removed list.
  await dialog.getByRole("checkbox", { name: "Freezer" }).click();
  await page.screenshot({ path: shot("dialog") });
  await dialog.getByRole("button", { name: "Apply Changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(deviceRow(page)).toContainText(created);

  // After a reload the device still carries what was applied.
  await page.reload();
  await hydrated(page);
  await expect(deviceRow(page)).toContainText(renamed);
  await expect(deviceRow(page)).toContainText(created);
  await expect(deviceRow(page)).not.toContainText("Freezer");
  await expect(tagRow(page, renamed)).toContainText("1 device");
  await page.screenshot({ path: shot("page"), fullPage: true });

  // A rename shows on the devices that carry the tag at once, not after a reload.
  const renamedAgain = `${renamed} B`;
  await page.getByLabel(`Name of tag ${renamed}`).fill(renamedAgain);
  await page.getByLabel(`Name of tag ${renamed}`).press("Enter");
  await expect(tagRow(page, renamedAgain).getByRole("status")).toHaveText("Saved");
  await expect(deviceRow(page)).toContainText(renamedAgain);
  await page.getByLabel(`Name of tag ${renamedAgain}`).fill(renamed);
  await page.getByLabel(`Name of tag ${renamedAgain}`).press("Enter");
  await expect(deviceRow(page)).toContainText(renamed);
  await expect(deviceRow(page)).not.toContainText(renamedAgain);

  // Put Freezer back, then delete both new tags (each after a question).
  const again = await openDialog(page);
  await again.getByRole("checkbox", { name: "Freezer" }).click();
  await again.getByRole("button", { name: "Apply Changes" }).click();
  await expect(again).toBeHidden();
  for (const tag of [renamed, created]) {
    await tagRow(page, tag)
      .getByRole("button", { name: `Delete tag ${tag}` })
      .click();
    const confirm = page.getByRole("dialog", { name: "Delete tag" });
    await expect(confirm).toContainText("It comes off the 1 device that carries it.");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByLabel(`Name of tag ${tag}`)).toHaveCount(0);
  }
  await page.reload();
  await hydrated(page);
  await expect(deviceRow(page)).toContainText("Freezer");
  await expect(deviceRow(page)).not.toContainText("E2E");
});

test("a Viewer sees the tags read-only", async ({ page }) => {
  await signInAs(page, "viewer@example.com");
  await openTagsPage(page);
  const tags = page.getByRole("list", { name: "Tags" });
  await expect(tags).toContainText("Lab");
  await expect(tags).toContainText("device");
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete tag/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Update tags of/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Add tags" })).toHaveCount(0);
  await expect(deviceRow(page)).toContainText("Freezer");
  await page.screenshot({ path: shot("viewer"), fullPage: true });
});

test("shows the tag search's whole placeholder on a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, "admin@example.com");
  await openTagsPage(page);
  const dialog = await openDialog(page);
  const search = dialog.getByRole("searchbox", { name: "Search tags" });
  await page.screenshot({ path: shot("dialog-phone") });
  const { text, room } = await search.evaluate((el: HTMLInputElement) => {
    const css = getComputedStyle(el);
    const pen = document.createElement("canvas").getContext("2d")!;
    pen.font = css.font;
    const inner = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
    return { text: pen.measureText(el.placeholder).width, room: inner };
  });
  expect(text).toBeLessThanOrEqual(room);
});
