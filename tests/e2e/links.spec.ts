import { expect, test } from "./fixtures.ts";
import { hydrated } from "./helpers.ts";

test("opens Forgot Password with the typed address, never in the URL, and can go back to change it", async ({
  page,
  context,
}) => {
  await page.goto("/gateway");
  await hydrated(page);
  const card = page.getByRole("form", { name: "Account Login" });
  await card.getByLabel("Email").fill("viewer@example.com");
  await page.keyboard.press("Enter");
  await expect(card.getByLabel("Password")).toBeVisible();
  const [reset] = await Promise.all([
    context.waitForEvent("page"),
    card.getByRole("link", { name: "Forgot Password" }).click(),
  ]);
  await reset.waitForLoadState();
  await hydrated(reset);
  expect(reset.url()).not.toContain("viewer");
  await expect(reset.getByLabel("Email")).toHaveValue("viewer@example.com");
  await reset.close();
  await card.getByRole("link", { name: "Use another email address" }).click();
  await expect(card.getByLabel("Email")).toHaveValue("viewer@example.com");
  await expect(card.getByLabel("Email")).toBeFocused();
});

test("links 'Request a new one' to where a new link is had", async ({ page }) => {
  await page.goto("/gateway/reset-password?token=not-a-real-token");
  await hydrated(page);
  await expect(page.getByText("This link is invalid or has expired.")).toBeVisible();
  await page.getByRole("link", { name: "Request a new one" }).click();
  await expect(page).toHaveURL(/\/gateway\/request-password-reset$/);
  await page.goto("/user/validate?token=not-a-real-token");
  await hydrated(page);
  await page.getByRole("link", { name: "Request a new one" }).click();
  await expect(page).toHaveURL(/\/user\/register$/);
});
