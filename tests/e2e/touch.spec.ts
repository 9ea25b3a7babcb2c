import type { Locator } from "@playwright/test";
import { DEMO } from "../../server/seed/demo.ts";
import { expect, test } from "./fixtures.ts";
import { deviceIds, hydrated, signInAs } from "./helpers.ts";

// On a touch phone (coarse pointer) the small controls get a finger's height, 44 px, where a
// mouse keeps them compact: tracking numbers, a reading's Settings, map pins (their reach), the
// reports list's actions, the report editor's channel boxes and device groups.
const FINGER = 44;
const ORDER = `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The heights of every match (all must be visible). */
async function heights(items: Locator) {
  await expect(items.first()).toBeVisible();
  const all = await items.all();
  return Promise.all(all.map(async (item) => Math.round((await item.boundingBox())!.height)));
}

async function expectFingerHigh(items: Locator) {
  for (const height of await heights(items)) expect(height).toBeGreaterThanOrEqual(FINGER);
}

/**
 * A finger 20 px above and below the middle of each pin's dot still lands on the pin: the reach
 * grows around the pin, not its box (names are hidden by the boxes they overlap).
 */
async function expectPinsInReach(pins: Locator) {
  await expect(pins.first()).toBeVisible();
  for (const pin of await pins.all()) {
    const dot = (await pin.locator(".dot").boundingBox())!;
    for (const dy of [-20, 20]) {
      const at = { x: dot.x + dot.width / 2, y: dot.y + dot.height / 2 + dy };
      const landed = await pin.evaluate((el, p) => {
        const hit = document.elementFromPoint(p.x, p.y);
        return hit !== null && el.contains(hit);
      }, at);
      expect(landed, `${await pin.getAttribute("aria-label")} at ${dy} px`).toBe(true);
    }
    // The pin's own box keeps its size: about a line of small text.
    expect((await pin.boundingBox())!.height).toBeLessThan(30);
  }
}

test("the screen reports a coarse pointer", async ({ page }) => {
  await page.goto("/");
  expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
});

test("tracking numbers on a public order are a finger high", async ({ page }) => {
  await page.goto(ORDER);
  await hydrated(page);
  await expectFingerHigh(page.locator("#order-card .tracking-list button"));
});

test("a reading's Settings and the map's pins are a finger high", async ({ page }) => {
  await signInAs(page, "admin@example.com");
  await page.goto(`/s/devices/${(await deviceIds(page))["Lab Base Station"]}`);
  await expectFingerHigh(page.getByRole("button", { name: /^Settings of/ }));
  await page.goto("/devices/device-map");
  await expectPinsInReach(page.getByRole("list", { name: "Devices on the map" }).getByRole("link"));
});

test("the reports list's actions and the report editor's groups and channel boxes are a finger high", async ({
  page,
}) => {
  await signInAs(page, "admin@example.com");
  await page.goto("/s/reports");
  await expectFingerHigh(page.locator(".report-actions").getByRole("link"));
  await expectFingerHigh(page.locator(".report-actions").getByRole("button"));
  await page.goto("/s/reports/new");
  await expect(page.getByRole("heading", { name: "New report" })).toBeVisible();
  const group = page.locator(".channel-picker summary").first();
  await expectFingerHigh(group);
  await group.tap();
  await expectFingerHigh(page.locator(".channel-picker details[open] .channel-choice label"));
});
