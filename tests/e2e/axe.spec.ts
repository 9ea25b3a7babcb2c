import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

// The accessibility scan every browser test runs (fixtures.ts), checked on purpose-broken pages.

/** Adds an image without a text alternative (axe: image-alt, critical) to the page's main. */
const addImageWithoutAlt = (page: Page) =>
  page.evaluate(() => {
    const img = document.createElement("img");
    img.id = "no-alt";
    img.src = "/logo.svg";
    document.querySelector("main")!.append(img);
  });

test("names the rule, its impact, the page and the element of a serious violation", async ({ page }) => {
  await page.goto("/terms");
  await expectAccessible(page); // the page as served, before the test breaks it
  await addImageWithoutAlt(page);
  const error = await expectAccessible(page).then(
    () => "no violation found",
    (e: Error) => e.message,
  );
  expect(error).toContain("critical image-alt on /terms: Images must have alternative text");
  expect(error).toContain("#no-alt");
  await page.evaluate(() => document.getElementById("no-alt")!.remove());
});

test("fails a test that leaves a page with a serious violation, though the test never asks", async ({
  page,
}) => {
  test.fail(true, "the scan at the end of the test finds the image without alt text");
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await addImageWithoutAlt(page);
});

test("prints a moderate violation and lets the test pass", async ({ page }) => {
  await page.goto("/terms");
  await expectAccessible(page);
  await page.evaluate(() => document.querySelector("h1")!.remove());
  const printed: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void printed.push(parts.join(" "));
  try {
    await expectAccessible(page);
  } finally {
    console.log = log;
  }
  expect(printed.join("\n")).toContain("axe moderate page-has-heading-one on /terms");
});
