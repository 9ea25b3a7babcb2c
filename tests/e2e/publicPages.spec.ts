import { DEMO } from "../../server/seed/demo.ts";
import { CATALOGUE } from "../../src/domain/catalogue.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { expect, test } from "./fixtures.ts";

// Issue 35, fault 12: the public pages say what the portal and the company offer.
test("the home page says what the portal does and leads to sign-in and the lookup", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("devices, reports and orders");
  await expect(page.getByRole("heading", { name: "What you can do here" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("button", { name: "Sign in" })).toHaveAttribute(
    "href",
    "/gateway",
  );
  await expect(page.getByRole("main").getByRole("button", { name: "Find a quote or order" })).toHaveAttribute(
    "href",
    "/p/order-quote/search",
  );
});

test("the products page lists every product of the catalogue with its number and price", async ({ page }) => {
  await page.goto("/products");
  for (const [number, product] of Object.entries(CATALOGUE)) {
    const card = page.getByRole("article", { name: product.description });
    await expect(card).toContainText(number);
    await expect(card).toContainText(formatMoney(product.listPrice, 1));
  }
  await expect(page.getByRole("article")).toHaveCount(Object.keys(CATALOGUE).length);
});

test("the support page gives the phone, the hours, the mail address and how to find an order", async ({
  page,
}) => {
  await page.goto("/support");
  await expect(page.getByRole("link", { name: "800-555-0199" })).toHaveAttribute("href", "tel:+18005550199");
  await expect(page.getByText("Monday to Friday")).toBeVisible();
  await expect(page.getByRole("link", { name: "support@example.com" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Quote and Order Lookup" }).first()).toHaveAttribute(
    "href",
    "/p/order-quote/search",
  );
  await page.getByText("Where is my shipment?").click();
  await expect(page.getByText("tracking number")).toBeVisible();
});

for (const { hash, model } of [
  { hash: DEMO.raDeviceHash, model: "RA12 Base Station" },
  { hash: DEMO.ramaxDeviceHash, model: "RAMAX Controller" },
]) {
  test(`the device page shows a drawing of the ${model}`, async ({ page }) => {
    await page.goto(`/p/device/${hash}`);
    const picture = page.getByRole("img", { name: model });
    await expect(picture).toBeVisible();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // A drawing, not the grey box with the model's name it replaced (one rect, one dot, a text).
    const svg = await (await page.request.get((await picture.getAttribute("src"))!)).text();
    expect(svg.match(/<(rect|circle|path)\b/g)!.length).toBeGreaterThan(8);
  });
}
