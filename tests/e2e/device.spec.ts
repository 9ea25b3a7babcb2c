import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";
import { deviceIds, LIVE_MS, signInAs } from "./helpers.ts";
import { PORTAL } from "../../playwright.config.ts";
import { jsBeforeMark } from "../../scripts/bench/paint.ts";
import { pageWeight } from "../../scripts/bench/weight.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";

// The device page (issue 9) as a public visitor, an Administrator and a Viewer. Edits happen
// on Northwind's device (its owner is an Administrator there) so the Acme demo devices other
// specs read stay as seeded; a push goes through the real push endpoint with the demo key.

const RA_MAC = "00:1A:2B:3C:4D:01";
const NORTHWIND_MAC = "00:1A:2B:3C:4D:04";
const COLD_ROOM_TEMP = `${RA_MAC}_W1A001_1200_0_1`;
const DOCK_TEMP = `${NORTHWIND_MAC}_BASE04_1300_0_1`;
const PUSH_TIME = /^[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d\d (AM|PM)$/;
const KB = 1024;

/** Posts readings as the device would (the demo key signs it). */
async function push(page: Page, mac: string, readings: { channelKey: string; value: number }[]) {
  const res = await page.request.post("/api/v1/device-data/push", {
    headers: { authorization: `Device ${demoDeviceKey(mac)}` },
    data: { macAddress: mac, readings },
  });
  expect(res.status()).toBe(200);
}

/**
 * Every text the element shows from now on. The demo's simulator keeps pushing, drifting
 * from the value it read before its push: on a busy machine its push can follow the test's
 * within milliseconds, so a pushed reading may show only briefly; the test asks that it showed.
 */
async function textsShown(locator: Locator): Promise<() => Promise<string[]>> {
  await locator.evaluate((el) => {
    const seen = [el.textContent ?? ""];
    (el as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => seen.push(el.textContent ?? "")).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () => locator.evaluate((el) => (el as unknown as { seen: string[] }).seen);
}

/** A gate a routed request waits at until the test releases it. */
function held() {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
}

/** Signs in as `email` and opens the signed-in page of the demo's Lab Base Station. */
/**
 * A silent adapter's warning icon shows, but a screen reader hears the warning once: the
 * card's 'No reading for N hours' says it, so the icon is decorative.
 */
async function expectWarningReadOnce(unit: Locator) {
  await expect(unit.locator("h4 svg")).toBeVisible();
  await expect(unit.locator("h4 svg")).toHaveAttribute("aria-hidden", "true");
  await expect(unit.getByRole("img")).toHaveCount(0);
  expect((await unit.ariaSnapshot()).match(/No reading for/g)).toHaveLength(1);
}

async function openLabStation(page: Page, email: string) {
  await signInAs(page, email);
  await page.goto(`/s/devices/${(await deviceIds(page))["Lab Base Station"]}`);
}

/** A unit card by its title. */
const card = (page: Page, title: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 4, name: title, exact: false }) })
    .first();
/** The info panel's value of a row. */
const info = (page: Page, row: string) => page.locator(`[data-row="${row}"]`);
const readingLabels = (c: Locator) => c.locator(".readings dt").allTextContents();
const titlesOf = (section: Locator) => section.getByRole("heading", { level: 4 }).allTextContents();
/** A muted card: its frame at half opacity, its text in the muted grey. */
const muted = (c: Locator) =>
  c.evaluate(
    (el) =>
      getComputedStyle(el, "::before").opacity === "0.5" &&
      getComputedStyle(el.querySelector("h4")!).color !== getComputedStyle(document.body).color,
  );
const section = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

test.describe("the public device page", () => {
  test("shows an RA device read-only: header, info panel and dashboard by the spec's rules", async ({
    page,
  }) => {
    // A spinner while the device is asked for.
    const { gate, release } = held();
    await page.route("**/public/device-details/**", async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto(`/p/device/${DEMO.raDeviceHash}`);
    await expect(page.getByText("Loading device...")).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Lab Base Station" })).toBeVisible();
    await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
    const header = page.locator(".device-header");
    await expect(header.getByRole("listitem")).toHaveText(["Critical", "Lab"]);
    await expect(header).toContainText("Building 2, Lab 204");
    await expect(header).toContainText("Pushing");
    // Read-only: no field, no button, no link in the page's own card.
    await expect(page.locator("#device-card").getByRole("textbox")).toHaveCount(0);
    await expect(page.locator("#device-card").getByRole("button")).toHaveCount(0);
    await expect(page.locator("#device-card").getByRole("link")).toHaveCount(0);

    await expect(info(page, "uptime")).toHaveText(/^\d+ days \d\d:\d\d:\d\d$/);
    await expect(info(page, "push")).toHaveText("Pushing");
    await expect(info(page, "link")).toHaveText("Connected to Lab Network Link");
    await expect(info(page, "eth")).toHaveCount(0);
    await expect(info(page, "wlan")).toHaveCount(0);
    await expect(info(page, "mac")).toHaveText(RA_MAC);
    await expect(info(page, "serial")).toHaveText("SN-RA12-100200");
    await expect(info(page, "firmware").getByRole("img", { name: "Firmware is up to date" })).toBeVisible();
    await expect(info(page, "model")).toHaveText("RA12 Base Station");
    await expect(info(page, "warranty").getByRole("img", { name: "Under warranty" })).toBeVisible();
    await expect(info(page, "lastPush")).toHaveText(PUSH_TIME);
    await expect(info(page, "nextPush")).toHaveText(PUSH_TIME);
    const image = page.getByRole("img", { name: "RA12 Base Station" });
    expect(await image.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("250px");

    const dashboard = page.locator(".dashboard");
    await expect(dashboard.getByRole("heading", { level: 3 })).toHaveText([
      "Temperature overview",
      "Base Station",
      "Wireless Sensors",
    ]);
    expect(await readingLabels(card(page, "Cold Room"))).toEqual([
      "Temperature",
      "Humidity",
      "Dew Point",
      "Heat Index",
    ]);
    await expect(card(page, "Cold Room").locator(".readings dd").first()).toHaveText(/^-?\d+(\.\d)? °F$/);
    // The overview leaves out the base station's group (type 1300); the card shows it.
    await expect(section(page, "Temperature overview")).not.toContainText("Base Station");
    await expect(card(page, "Base Station")).toContainText("Temperature");
    await expect(page.getByText("Storage Closet")).toHaveCount(0);
  });

  test("shows battery bands, the alert in red unless plugged in, signal for wireless units, muted sensors last", async ({
    page,
  }) => {
    await page.goto(`/p/device/${DEMO.raDeviceHash}`);
    const wireless = section(page, "Wireless Sensors");
    await expect(wireless.getByRole("heading", { level: 4 }).last()).toHaveText("Freezer B (stale)");
    expect(await titlesOf(wireless)).toEqual([
      "Cold Room",
      "Incubator",
      "Freezer A",
      "Mains Probe",
      "Freezer B (stale)",
    ]);
    await expect(card(page, "Cold Room")).toContainText("Battery: Good (92%)");
    await expect(card(page, "Incubator")).toContainText("Battery: Ok (45%)");
    await expect(card(page, "Incubator")).toContainText("Signal: Strong (-79 dBm)");
    const alert = card(page, "Freezer A").locator(".battery");
    await expect(alert).toHaveText("Battery: Low (12%) · Alert");
    const red = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--pico-del-color)";
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    expect(await alert.evaluate((el) => getComputedStyle(el).color)).toBe(red);
    const plugged = card(page, "Mains Probe").locator(".battery");
    await expect(plugged).toHaveText("Battery: Low (20%), plugged in");
    expect(await plugged.evaluate((el) => getComputedStyle(el).color)).not.toBe(red);
    await expect(card(page, "Freezer A")).toContainText("Signal: Okay (-91 dBm)");
    await expect(card(page, "Base Station")).not.toContainText("Signal");
    expect(await muted(card(page, "Freezer B (stale)"))).toBe(true);
    expect(await muted(card(page, "Cold Room"))).toBe(false);
    // A silent unit says for how long (the demo's Freezer B stopped 5 hours before seeding;
    // tests/domain/dashboard.test.ts holds the wording to the hour).
    await expect(card(page, "Freezer B (stale)").locator(".unit-silence")).toHaveText(
      /^No reading for \d+ (hours|days)$/,
    );
    await expect(card(page, "Cold Room").locator(".unit-silence")).toHaveCount(0);
  });

  test("lays out the RAMAX panel: controller, numbered ports, a muted adapter last with its warning icon", async ({
    page,
  }) => {
    await page.goto(`/p/device/${DEMO.ramaxDeviceHash}`);
    await expect(page.getByRole("heading", { level: 1, name: "Warehouse RAMAX" })).toBeVisible();
    await expect(page.locator(".dashboard.ramax").getByRole("heading", { level: 3 })).toHaveText([
      "Temperature overview",
      "Controller",
      "Ports",
      "Other Channel Groups",
    ]);
    expect(await titlesOf(section(page, "Ports"))).toEqual([
      "Port 1Pump Voltage",
      "Port 3Dock Probe",
      "Port 2Line Flow",
    ]);
    const flow = card(page, "Line Flow");
    await expectWarningReadOnce(flow);
    expect(await muted(flow)).toBe(true);
    await expect(card(page, "Pump Voltage").getByRole("img")).toHaveCount(0);
    await expect(
      info(page, "firmware").getByRole("img", { name: "Firmware update available: 4.0.2" }),
    ).toBeVisible();
    await expect(info(page, "warranty")).toHaveCount(0);
    await expect(info(page, "link")).toHaveText("Not connected to a Link");
  });

  test("sends a device type not beginning with RA from /p/device to /public/device", async ({ page }) => {
    await page.goto(`/p/device/${DEMO.otherDeviceHash}`);
    await page.waitForURL(`**/public/device/${DEMO.otherDeviceHash}`);
    await expect(page.getByRole("heading", { level: 1, name: "Freezer Monitor" })).toBeVisible();
    // A WS2 Wi-Fi sensor is no base station: its unit's section says so.
    await expect(page.getByRole("heading", { level: 3, name: "Sensor", exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Base Station" })).toHaveCount(0);
    // An RA device's page also answers at /public/device, without a redirect.
    await page.goto(`/public/device/${DEMO.raDeviceHash}`);
    await expect(page.getByRole("heading", { level: 1, name: "Lab Base Station" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/public/device/${DEMO.raDeviceHash}`);
  });

  test("shows the error view for an unknown link, and Reload Page loads the page again", async ({ page }) => {
    await page.goto("/p/device/NoSuchDeviceLinkAtAll123");
    const problem = page.getByRole("alert");
    await expect(problem.getByRole("heading", { name: "Oops! Something went wrong." })).toBeVisible();
    await expect(problem).toContainText("Unexpected error loading device");
    await expect(problem).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(problem.getByRole("button", { name: "Reload Page" })).toBeFocused();
    const reloaded = page.waitForEvent("load");
    await page.keyboard.press("Enter");
    await reloaded;
    await expect(page.getByRole("heading", { name: "Oops! Something went wrong." })).toBeVisible();
  });

  test("says 'No device ID provided.' where the address names no device", async ({ page }) => {
    await page.goto("/p/device/_/");
    await expect(page.getByRole("alert")).toContainText("No device ID provided.");
  });

  test("shows a pushed reading and the last push within 2 s", async ({ page }) => {
    await page.goto(`/p/device/${DEMO.raDeviceHash}`);
    const reading = card(page, "Cold Room").locator(".readings dd").first();
    await expect(reading).toHaveText(/°F$/);
    // Wait until the page's live watch is connected (on a busy machine that can take seconds
    // after the card shows), then push a value the simulator never shows.
    await page.locator('html[data-live="1"]').waitFor({ state: "attached" });
    const node = await reading.elementHandle();
    try {
      const shown = await textsShown(reading);
      await push(page, RA_MAC, [{ channelKey: COLD_ROOM_TEMP, value: 10 }]);
      // 10 °C is 50 °F; the simulator's next pushes drift from it by a few hundredths.
      await expect
        .poll(shown, { timeout: LIVE_MS })
        .toContainEqual(expect.stringMatching(/^(49\.[89]|50(\.[0-2])?) °F$/));
      // The repaint rewrote the reading in place rather than rebuilding the card.
      expect(await node!.evaluate((el) => el.isConnected)).toBe(true);
    } finally {
      await push(page, RA_MAC, [{ channelKey: COLD_ROOM_TEMP, value: 4.2 }]);
    }
  });

  test("paints with at most 10 KB gzip of JS, the whole page within 100 KB", async ({ page }) => {
    await page.goto(`/p/device/${DEMO.raDeviceHash}`);
    await page.waitForFunction(() => performance.getEntriesByName("portal:painted").length > 0);
    const js = await jsBeforeMark(page, "portal:painted");
    expect(js.files.join("\n")).not.toMatch(/react|client\./i);
    expect(js.gzip).toBeLessThanOrEqual(10 * KB);
    const weight = await pageWeight(PORTAL, `/p/device/${DEMO.raDeviceHash}`);
    expect(weight.js.gzip).toBeLessThanOrEqual(100 * KB);
  });
});

test.describe("the signed-in device page as an Administrator", () => {
  test("shows the owner's info: the named link, LAN addresses with the open-interface action, times in the account's zone", async ({
    page,
  }) => {
    await signInAs(page, "admin@example.com");
    const ids = await deviceIds(page);
    await page.goto(`/s/devices/${ids["Lab Base Station"]}`);
    await expect(info(page, "link").getByRole("link", { name: "Lab Network Link" })).toHaveAttribute(
      "href",
      /^\/links\/\d+$/,
    );
    const open = info(page, "eth").getByRole("link", { name: /Open interface/ });
    await expect(open).toHaveAttribute("href", "https://192.168.10.20:8443/");
    await expect(open).toHaveAttribute("target", "_blank");
    await expect(info(page, "wlan")).toContainText("10.0.0.40 (LabNet)");
    const res = await page.request.get(`/api/v1/device-data/device-details/${ids["Lab Base Station"]}`);
    const general = (
      (await res.json()) as { data: { device: { general: { lastMessageTimestamp: number } } } }
    ).data.device.general;
    const last = formatPushTime(epochSeconds(general.lastMessageTimestamp), "America/New_York");
    const shown = (await info(page, "lastPush").textContent()) ?? "";
    // A push may have landed in between: the minute shown is this one or a later one.
    expect(shown === last || Date.parse(shown.replace(",", "")) >= Date.parse(last.replace(",", ""))).toBe(
      true,
    );
    await expect(page.getByText("Times in your account's time zone, America/New_York.")).toBeVisible();
    await expect(card(page, "Freezer B (stale)").locator(".unit-silence")).toHaveText(
      /^No reading for \d+ (hours|days)$/,
    );

    await page.goto(`/s/devices/${ids["Warehouse RAMAX"]}`);
    await expect(info(page, "eth").getByRole("link", { name: /Open interface/ })).toHaveAttribute(
      "href",
      "http://192.168.10.21/",
    );
    await expectWarningReadOnce(card(page, "Line Flow"));
  });

  test("links each reading to its explore page, in the account's scale", async ({ page }) => {
    await openLabStation(page, "admin@example.com");
    const temperature = card(page, "Cold Room").getByRole("link").first();
    await expect(temperature).toHaveText(/°C$/);
    await expect(temperature).toHaveAttribute("href", `/s/sensor-data/explore/${COLD_ROOM_TEMP}`);
    await expect(page.getByRole("region", { name: "Hidden Sensors" })).toContainText("Storage Closet");
    await expect(page.getByText("Live: readings update as the device pushes.")).toBeVisible();
  });

  test("offers the menu's dialogs and Update Tags by keyboard", async ({ page }) => {
    await openLabStation(page, "admin@example.com");
    const menu = page.getByRole("button", { name: "Device actions" });
    await menu.focus();
    await page.keyboard.press("Enter");
    const items = page.locator(".device-menu li").getByRole("button");
    await expect(items).toHaveText(["Update Location", "Manage Public Link", "Download Device Data"]);
    await page.keyboard.press("Escape");
    await expect(items.first()).toBeHidden();
    await expect(menu).toBeFocused();
    for (const [item, title] of [
      ["Update Location", "Update Location"],
      ["Manage Public Link", "Public Link"],
      ["Download Device Data", "Download Data"],
    ] as const) {
      await page.keyboard.press("Enter");
      await expect(page.getByRole("button", { name: item })).toBeVisible();
      await page.getByRole("button", { name: item }).press("Enter");
      // The dialog's code loads the first time it opens.
      await expect(page.getByRole("dialog", { name: title })).toBeVisible({ timeout: 10_000 });
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(menu).toBeFocused();
    }
    await page.getByRole("button", { name: "Update Tags" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Update Tags" })).toBeVisible({ timeout: 10_000 });
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Update Tags" })).toBeFocused();
  });

  test("leaves the focus where it went after a dialog closed, though the close event comes later", async ({
    page,
  }) => {
    await openLabStation(page, "admin@example.com");
    await page.getByRole("button", { name: "Update Tags" }).press("Enter");
    await expect(page.getByRole("dialog", { name: "Update Tags" })).toBeVisible({ timeout: 10_000 });
    // Closed and the menu button focused in one task: the dialog's close event runs after both.
    await page.evaluate(() => {
      document.querySelector<HTMLDialogElement>("dialog[open]")!.close();
      document.querySelector<HTMLElement>(".device-menu > button")!.focus();
    });
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    await expect(page.getByRole("button", { name: "Device actions" })).toBeFocused();
  });

  test("stays open when opened again before the last close's event arrived", async ({ page }) => {
    await openLabStation(page, "admin@example.com");
    const updateTags = page.getByRole("button", { name: "Update Tags" });
    await updateTags.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Update Tags" });
    await expect(dialog).toBeVisible({ timeout: 10_000 });
    // Escape's way (cancel, then close) and Enter on the opener in one task, React's updates
    // between them: the close event comes after the dialog opened again.
    await page.evaluate(async () => {
      document.querySelector<HTMLDialogElement>("dialog[open]")!.requestClose();
      await new Promise((done) => queueMicrotask(() => done(null)));
      [...document.querySelectorAll<HTMLButtonElement>(".device-meta button")]
        .find((b) => b.textContent === "Update Tags")!
        .click();
    });
    await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(updateTags).toBeFocused();
  });

  test("shows the error view for a device of another subscription and for none at all", async ({
    page,
    browser,
  }) => {
    const owner = await (await browser.newContext()).newPage();
    await signInAs(owner, "owner@northwind.example.com");
    const northwind = (await deviceIds(owner))["Northwind Dock Station"]!;
    await owner.context().close();
    await signInAs(page, "admin@example.com");
    for (const id of [northwind, 2_000_000_000]) {
      await page.goto(`/s/devices/${id}`);
      await expect(page.getByRole("heading", { name: "Oops! Something went wrong." })).toBeVisible();
      await expect(page.getByRole("alert")).toContainText("Unexpected error loading device");
      await expect(page.getByRole("button", { name: "Reload Page" })).toBeVisible();
    }
  });
});

test.describe("editing a device as its Administrator", () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, "owner@northwind.example.com");
    const id = (await deviceIds(page))["Northwind Dock Station"]!;
    await page.goto(`/s/devices/${id}`);
  });

  test("renames with Enter or blur, trims, keeps an empty or unchanged name, reverts with Escape", async ({
    page,
  }) => {
    const name = page.getByRole("textbox", { name: "Device name" });
    await expect(name).toHaveValue("Northwind Dock Station");
    expect(await name.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(200);
    // The pencil after the name says it edits, and a click on it starts editing.
    await page.locator(".device-title-pencil").click();
    await expect(name).toBeFocused();
    const renamed = page.waitForResponse((r) => r.url().includes("/update-device/"));
    await name.fill("  Dock Station North  ");
    await page.keyboard.press("Enter");
    await renamed;
    await expect(name).toHaveValue("Dock Station North");
    await expect(page.getByRole("heading", { level: 1, name: "Dock Station North" })).toBeAttached();
    await name.fill("Something else");
    await page.keyboard.press("Escape");
    await expect(name).toHaveValue("Dock Station North");
    await name.fill("   ");
    await name.blur();
    await expect(name).toHaveValue("Dock Station North");
    await name.fill("x".repeat(101));
    await page.keyboard.press("Enter");
    await expect(
      page.getByRole("alert").filter({ hasText: "Device name must be between 1 and 100" }),
    ).toBeVisible();
    await name.focus();
    await page.keyboard.press("Escape");
    await expect(name).toHaveValue("Dock Station North");
    await page.reload();
    await expect(name).toHaveValue("Dock Station North");
    await name.fill("Northwind Dock Station");
    const back = page.waitForResponse((r) => r.url().includes("/update-device/"));
    await name.blur();
    await back;
  });

  test("saves Sensor Settings by keyboard in the account's scale, with the label's count and its one message", async ({
    page,
  }) => {
    const settings = page.getByRole("button", { name: "Settings of Dock Station" });
    await settings.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Sensor Settings" });
    await expect(dialog).toContainText("Sensor type: Internal");
    const label = dialog.getByRole("textbox", { name: "Label" });
    // The dialog opens on its close button; the label is next.
    await page.keyboard.press("Tab");
    await expect(label).toBeFocused();
    // The field counts as it is typed and says at once when the label is too long; Enter
    // then sends nothing, and the field's message stays the one error.
    await label.fill("x".repeat(50));
    await expect(dialog.getByText("50 of 50 characters")).toBeVisible();
    await expect(dialog.getByText("Label must be 50 characters or fewer.")).toHaveCount(0);
    // One character more and the count gives way to the limit's message.
    await label.press("x");
    await expect(dialog.getByText("Label must be 50 characters or fewer.")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(dialog.getByText("Label must be 50 characters or fewer.")).toHaveCount(1);
    await expect(dialog.getByText("Failed to update sensor label")).toHaveCount(0);
    await expectAccessible(page);

    await label.fill("Dock Internal");
    const temperature = dialog.getByRole("textbox", { name: "Temperature adjustment (°C)" });
    await temperature.fill("0.5");
    // "±" turns the sign (an iPhone's decimal keypad has no minus key) and leaves the focus there.
    const sign = temperature.locator("xpath=following-sibling::button");
    await expect(sign).toHaveAccessibleName("Turn the sign");
    await expect(sign).toHaveAccessibleDescription("Temperature adjustment (°C)");
    await sign.click();
    await expect(temperature).toHaveValue("-0.5");
    await expect(temperature).toBeFocused();
    await sign.click();
    await expect(temperature).toHaveValue("0.5");
    await expect(dialog.getByRole("textbox", { name: "Humidity adjustment (%)" })).toHaveValue("0");
    // While the save is out, Save is busy and cannot be pressed.
    const { gate, release } = held();
    await page.route("**/update-sensor/", async (route) => {
      await gate;
      await route.continue();
    });
    await temperature.press("Enter");
    await expect(dialog.getByRole("button", { name: "Saving..." })).toBeDisabled();
    release();
    await expect(dialog).toBeHidden();
    await page.unroute("**/update-sensor/");
    await expect(card(page, "Dock Internal")).toBeVisible();
    await expect(settings).toHaveCount(0);

    await page.getByRole("button", { name: "Settings of Dock Internal" }).click();
    await expect(dialog.getByRole("textbox", { name: "Temperature adjustment (°C)" })).toHaveValue("0.5");
    await page.route("**/update-sensor/", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false,"data":[]}' }),
    );
    await label.fill("Dock Station");
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("alert")).toHaveText("Failed to save settings");
    await page.unroute("**/update-sensor/");
    await dialog.getByRole("textbox", { name: "Temperature adjustment (°C)" }).fill("0");
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(card(page, "Dock Station")).toBeVisible();
  });

  test("hides a sensor with the toggle and shows it again from Hidden Sensors", async ({ page }) => {
    await page.getByRole("button", { name: "Settings of Dock Station" }).click();
    const dialog = page.getByRole("dialog", { name: "Sensor Settings" });
    await dialog.getByRole("switch", { name: "Show on the dashboard" }).uncheck();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const hidden = page.getByRole("region", { name: "Hidden Sensors" });
    await expect(hidden).toContainText("Dock Station");
    await expect(page.locator(".unit-card")).toHaveCount(0);
    await hidden.getByRole("button", { name: "Show Dock Station" }).click();
    await expect(card(page, "Dock Station")).toBeVisible();
    await expect(page.getByRole("region", { name: "Hidden Sensors" })).toHaveCount(0);
  });

  test("shows a pushed reading, the last push and the status within 2 s", async ({ page }) => {
    const reading = card(page, "Dock Station").getByRole("link").first();
    await expect(page.getByText("Live: readings update as the device pushes.")).toBeVisible();
    try {
      const shown = await textsShown(reading);
      await push(page, NORTHWIND_MAC, [{ channelKey: DOCK_TEMP, value: 31.25 }]);
      await expect
        .poll(shown, { timeout: LIVE_MS })
        .toContainEqual(expect.stringMatching(/^31\.[1-3]\d? °C$/));
      await expect(page.locator(".device-header")).toContainText("Pushing");
    } finally {
      await push(page, NORTHWIND_MAC, [{ channelKey: DOCK_TEMP, value: 6.5 }]);
    }
  });

  test("fails an open public page at once when its link is deleted", async ({ page, browser }) => {
    await page.getByRole("button", { name: "Device actions" }).click();
    await page.getByRole("button", { name: "Manage Public Link" }).click();
    const dialog = page.getByRole("dialog", { name: "Public Link" });
    await dialog.getByRole("button", { name: /Create (Public|New) Link/ }).click();
    const address = await dialog.getByRole("textbox", { name: "Public link" }).inputValue();
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(address);
    await expect(visitor.getByRole("heading", { level: 1, name: "Northwind Dock Station" })).toBeVisible();
    await dialog.getByRole("button", { name: "Delete Public Link" }).click();
    await expect(visitor.getByRole("heading", { name: "Oops! Something went wrong." })).toBeVisible({
      timeout: 5000,
    });
    await visitor.context().close();
  });
});

test.describe("the signed-in device page as a Viewer", () => {
  test("shows the name as text, no tag or link controls, Download only, and settings read-only", async ({
    page,
  }) => {
    await signInAs(page, "viewer@example.com");
    const ids = await deviceIds(page);
    await page.goto(`/s/devices/${ids["Lab Base Station"]}`);
    await expect(page.getByRole("heading", { level: 1, name: "Lab Base Station" })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Device name" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Update Tags" })).toHaveCount(0);
    await page.getByRole("button", { name: "Device actions" }).click();
    await expect(page.locator(".device-menu li").getByRole("button")).toHaveText(["Download Device Data"]);
    await page.keyboard.press("Escape");
    await expect(
      page.getByRole("region", { name: "Hidden Sensors" }).getByRole("button", { name: /^Show/ }),
    ).toBeDisabled();

    await page.getByRole("button", { name: "Settings of Cold Room" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Sensor Settings" });
    await expect(dialog).toContainText("Your role can see these settings but not change them.");
    await expect(dialog.getByRole("textbox", { name: "Label" })).toBeDisabled();
    await expect(dialog.getByRole("textbox", { name: "Temperature adjustment (°C)" })).toBeDisabled();
    await expect(dialog.getByRole("switch")).toBeDisabled();
    await expect(dialog.getByRole("button", { name: "Save" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).last().press("Enter");
    await expect(dialog).toBeHidden();

    await page.goto(`/s/devices/${ids["Warehouse RAMAX"]}`);
    await page.getByRole("button", { name: "Settings of Pump Voltage" }).click();
    const adapter = page.getByRole("dialog", { name: "Adapter Settings" });
    await expect(adapter.getByRole("textbox", { name: "Voltage adjustment (V)" })).toBeDisabled();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Settings of Air Quality" }).click();
    await expect(page.getByRole("dialog", { name: "Sensor Settings" })).toContainText(
      "This sensor has no adjustable channels.",
    );
  });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("fits the public and the signed-in device page in 390 px", async ({ page }) => {
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto(`/p/device/${DEMO.ramaxDeviceHash}`);
    await expect(page.locator(".unit-card").first()).toBeVisible();
    expect(await wide()).toBeLessThanOrEqual(390);
    await openLabStation(page, "admin@example.com");
    await expect(page.locator(".unit-card").first()).toBeVisible();
    expect(await wide()).toBeLessThanOrEqual(390);
  });

  test("wraps a long name whole and says when it is saved", async ({ page }) => {
    await openLabStation(page, "admin@example.com");
    const name = page.getByRole("textbox", { name: "Device name" });
    const before = await name.inputValue();
    const long = "Lab Base Station North, second floor, beside the freezers";
    await name.fill(long);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Name saved." })).toBeVisible();
    // Every word in view: no text scrolled out of the field, which grew to more lines instead.
    const box = await name.evaluate((el) => ({
      scroll: el.scrollWidth,
      width: el.clientWidth,
      tall: el.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(el).lineHeight),
    }));
    expect(box.scroll).toBeLessThanOrEqual(box.width);
    expect(box.tall).toBeGreaterThan(2 * box.line);
    await name.fill(before);
    await page.keyboard.press("Enter");
    await expect(name).toHaveValue(before);
  });

  test("keeps a tall dialog's title and buttons in view while its fields scroll", async ({ page }) => {
    await openLabStation(page, "viewer@example.com");
    await page.getByRole("button", { name: "Settings of Cold Room" }).click();
    const dialog = page.getByRole("dialog", { name: "Sensor Settings" });
    const close = dialog.getByRole("button", { name: "Close" }).last();
    // Taller than the phone's screen, so its body scrolls; Close sits wholly on the screen.
    const article = dialog.locator("article");
    expect(await article.evaluate((a) => a.scrollHeight > a.clientHeight)).toBe(true);
    const box = (await close.boundingBox())!;
    const shown = (await article.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(shown.y + shown.height);
    await article.evaluate((a) => a.scrollTo(0, a.scrollHeight));
    await expect(dialog.getByRole("heading", { name: "Sensor Settings" })).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole("switch")).toBeInViewport({ ratio: 1 });
    await close.click();
    await expect(dialog).toBeHidden();
  });
});
