import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";

// The report builder as people use it: an Administrator makes a report with two channels and
// a threshold range, shares it, pauses, resumes and expires the link; a Viewer only reads.
// The report is this test's own (a random suffix) and is deleted at the end.

const SHOTS = "/tmp/shots-RS2";
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const suffix = () => Math.random().toString(36).slice(2, 7);
const metaPath = (hash: string) => `/api/v1/device-data/public/report/${hash}`;

async function openReports(page: Page) {
  await page.goto("/s/reports");
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole("table")).toBeVisible();
}

const row = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });

/** The public link's address as the dialog shows it, and the hash at its end. */
async function linkOf(page: Page) {
  const url = await page.getByRole("dialog").getByLabel("Link address").inputValue();
  expect(url).toMatch(/\/public\/report\/[A-Za-z0-9_-]{43}$/);
  return { url, hash: url.split("/").at(-1)! };
}

test("an Administrator builds a report, shares it, pauses, resumes and expires its link", async ({
  page,
  context,
}) => {
  // Many steps, each a real round trip: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const name = `E2E Cold chain ${suffix()}`;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, "admin@example.com");
  await openReports(page);
  await expect(row(page, "Lab Climate — Last 24 Hours")).toContainText("Last 24 hours");
  await expect(row(page, "Lab Climate — Last 24 Hours")).toContainText("Live");

  await page.getByRole("button", { name: "New report" }).click();
  await expect(page.getByRole("heading", { name: "New report" })).toBeVisible();
  await page.getByLabel("Report name").fill(name);
  await page.getByLabel("Window").selectOption({ label: "Last 7 days" });
  await page.getByText("Lab Base Station", { exact: true }).click();
  await page.getByLabel("Cold Room - Temperature").check();
  await page.getByLabel("Incubator - Temperature").check();
  await expect(page.getByText("Channels (2 chosen)")).toBeVisible();
  await page.getByRole("button", { name: "Add threshold range" }).click();
  const range = page.getByRole("group", { name: "Threshold range 1" });
  await range.getByLabel("Range name").fill("Too warm");
  await range.getByLabel("Applies to").selectOption({ label: "Cold Room - Temperature" });
  await range.getByLabel(/^From/).fill("8");
  await shot(page, "form-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "form-phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "Save report" }).click();

  await expect(page).toHaveURL(/\/s\/reports$/);
  await expect(row(page, name)).toContainText("2");
  await expect(row(page, name)).toContainText("Last 7 days");
  await expect(row(page, name)).toContainText("Not shared");
  await expect(row(page, name).getByRole("link", { name: /^View/ })).toHaveCount(0);

  // Share it: a link that opens, copied with a tooltip.
  await row(page, name).getByRole("button", { name: /^Link/ }).click();
  const dialog = page.getByRole("dialog", { name: `Public link: ${name}` });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const first = await linkOf(page);
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("button", { name: "Copy" })).toHaveAttribute("data-tooltip", "Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.url);
  // A wall display has its own view of the same link.
  await expect(dialog.getByRole("link", { name: "the display view" })).toHaveAttribute(
    "href",
    `${first.url}?kiosk=1`,
  );
  const opened = await page.request.get(metaPath(first.hash));
  expect(opened.status()).toBe(200);
  expect((await opened.json()).data.reportDetails.name).toBe(name);
  await expectAccessible(page);
  await shot(page, "link-dialog");

  // Regenerate: the old link fails at once.
  await dialog.getByRole("button", { name: "Regenerate link" }).click();
  await expect(dialog.getByLabel("Link address")).not.toHaveValue(first.url);
  const second = await linkOf(page);
  expect((await page.request.get(metaPath(first.hash))).status()).toBe(404);

  // Pause, resume.
  await dialog.getByRole("button", { name: "Pause link" }).click();
  await expect(dialog.getByText(/^Paused/)).toBeVisible();
  expect((await page.request.get(metaPath(second.hash))).status()).toBe(404);
  await dialog.getByRole("button", { name: "Resume link" }).click();
  await expect(dialog.getByText("Live", { exact: true })).toBeVisible();
  expect((await page.request.get(metaPath(second.hash))).status()).toBe(200);

  // An expiry in the past closes the link; clearing it opens it again.
  await dialog.getByLabel(/^Expires after/).fill("2020-01-31");
  await dialog.getByRole("button", { name: "Save expiry" }).click();
  await expect(dialog.getByText(/^Expired/)).toBeVisible();
  expect((await page.request.get(metaPath(second.hash))).status()).toBe(404);
  await dialog.getByLabel(/^Expires after/).fill("");
  await dialog.getByRole("button", { name: "Save expiry" }).click();
  await expect(dialog.getByText("Live", { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(row(page, name)).toContainText("Live");
  // A live report's chart opens from the list, in a tab of its own.
  const view = row(page, name).getByRole("link", { name: `View ${name}` });
  await expect(view).toHaveAttribute("href", `/public/report/${second.hash}`);
  await expect(view).toHaveAttribute("target", "_blank");
  await shot(page, "list-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "list-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Edit: the form comes back as saved (the range in the person's scale).
  await row(page, name).getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Edit report" })).toBeVisible();
  await expect(page.getByLabel("Report name")).toHaveValue(name);
  await expect(page.getByRole("group", { name: "Threshold range 1" }).getByLabel("Range name")).toHaveValue(
    "Too warm",
  );
  await page.getByRole("button", { name: "Cancel" }).click();

  // Delete: the link fails at once.
  await openReports(page);
  await row(page, name)
    .getByRole("button", { name: /^Delete/ })
    .click();
  await page.getByRole("dialog", { name: "Delete report?" }).getByRole("button", { name: "Delete" }).click();
  await expect(row(page, name)).toHaveCount(0);
  expect((await page.request.get(metaPath(second.hash))).status()).toBe(404);
});

test("a Viewer reads the reports and their links but changes nothing", async ({ page }) => {
  await signInAs(page, "viewer@example.com");
  await openReports(page);
  await expect(row(page, "Lab Climate — Audit Week")).toContainText("Live");
  // At 1280 px the name keeps to two lines at most (it was squeezed onto four), each row's
  // actions to one, and the table fits without scrolling sideways.
  await page.setViewportSize({ width: 1280, height: 900 });
  const lines = (cell: Locator) =>
    cell.evaluate((el) => {
      const text = document.createRange();
      text.selectNodeContents(el);
      const size = parseFloat(getComputedStyle(el).fontSize);
      return Math.round(text.getBoundingClientRect().height / (size * 1.5));
    });
  expect(await lines(page.getByRole("rowheader", { name: "Lab Climate — Audit Week" }))).toBeLessThanOrEqual(
    2,
  );
  const table = await page.locator(".overflow-auto").evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(table).toBeLessThanOrEqual(0);
  const actions = row(page, "Lab Climate — Audit Week").locator(".report-actions");
  const tops = await actions
    .locator("a, button")
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  // Reading includes the chart: a live report opens from View.
  const [chart] = await Promise.all([
    page.context().waitForEvent("page"),
    row(page, "Lab Climate — Audit Week").getByRole("link", { name: /^View/ }).click(),
  ]);
  await expect(chart.getByRole("heading", { name: "Lab Climate — Audit Week" })).toBeVisible();
  await chart.close();
  await expect(page.getByRole("button", { name: "New report" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  await expect(
    page.getByRole("rowheader", { name: "Lab Climate — Audit Week" }).getByRole("link"),
  ).toHaveCount(0);
  await row(page, "Lab Climate — Audit Week").getByRole("button", { name: /^Link/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Link address")).toHaveValue(/\/public\/report\//);
  await expect(dialog.getByRole("button", { name: /Pause|Regenerate|Delete/ })).toHaveCount(0);
  await shot(page, "viewer");
});
