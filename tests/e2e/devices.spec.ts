import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { PORTAL } from "../../playwright.config.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";
import { signInAs } from "./helpers.ts";

// The device list, the device map, a link's page, the explore chart, the /p/ fallback and the
// device header's Update Location, Public Link and Download Device Data dialogs (issue 9), as an
// Administrator and a Viewer. Location edits happen on Northwind's device (its owner is an
// Administrator there): other specs read the Acme devices as seeded. The public link's create,
// regenerate and delete answers are stood in for: the demo's public pages must keep their links
// while other specs open them (device.spec.ts creates and deletes a real link on Northwind's).

const PHONE = { width: 390, height: 844 };
const RA_MAC = "00:1A:2B:3C:4D:01";
const COLD_ROOM_TEMP = `${RA_MAC}_W1A001_1200_0_1`;
const ECHARTS_MARK = "_echarts_instance_";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/devices-${name}.png`, fullPage: true });

interface Listed {
  id: number;
  name: string;
  deviceType: string;
}
/** The signed-in person's devices. */
async function devicesOf(page: Page): Promise<Listed[]> {
  const res = await page.request.get("/api/v1/devices");
  return ((await res.json()) as { data: { deviceList: Listed[] } }).data.deviceList;
}
const idOf = async (page: Page, name: string) => (await devicesOf(page)).find((d) => d.name === name)!.id;

/** Opens a dialog from the device header's menu. */
async function openFromMenu(page: Page, item: string, title: string) {
  await page.getByRole("button", { name: "Device actions" }).click();
  await page.getByRole("button", { name: item }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Whether each JavaScript file the page loads carries ECharts (read as it arrives). */
function scriptsLoaded(page: Page): Promise<boolean>[] {
  const scripts: Promise<boolean>[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith(".js"))
      scripts.push(
        r.text().then(
          (t) => t.includes(ECHARTS_MARK),
          () => false,
        ),
      );
  });
  return scripts;
}
const carriesECharts = async (scripts: Promise<boolean>[]) => (await Promise.all(scripts)).some(Boolean);

/** Document width at phone size: nothing reaches past the right edge. */
async function expectFitsPhone(page: Page, name: string) {
  await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
  await shot(page, `${name}-phone`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test.describe("the device list", () => {
  test("an Administrator searches by name, filters by tag, reads each status in words and opens a device", async ({
    page,
  }) => {
    await signInAs(page, "admin@example.com");
    await page.goto("/s/devices");
    await expect(page.getByRole("heading", { level: 1, name: "Devices" })).toBeVisible();
    const table = page.getByRole("table", { name: "Devices of this subscription" });
    const names = table.getByRole("rowheader");
    await expect(names).toHaveText(["Freezer Monitor", "Lab Base Station", "Warehouse RAMAX"]);
    await expect(page.getByRole("status").filter({ hasText: "3 devices" })).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText([
      "Name",
      "Type",
      "Tags",
      "Location",
      "Last push",
      "Status",
    ]);
    const station = table
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "Lab Base Station" }) });
    await expect(station.getByRole("cell").nth(0)).toHaveText("RA12");
    await expect(station.getByRole("cell").nth(1)).toContainText("Critical");
    await expect(station.getByRole("cell").nth(2)).toHaveText("Building 2, Lab 204");
    await expect(station.getByRole("cell").nth(3)).toHaveText(
      /^[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d\d (AM|PM)$/,
    );
    // The simulator keeps pushing: the word is there whatever the dot's colour.
    await expect(station.getByRole("cell").nth(4)).toHaveText("Pushing");
    await shot(page, "list");

    const search = page.getByRole("searchbox", { name: "Search by name" });
    await search.fill("  rAmAx ");
    await expect(names).toHaveText(["Warehouse RAMAX"]);
    await expect(page.getByRole("status").filter({ hasText: "1 of 3 devices" })).toBeVisible();
    await search.fill("");
    await page.getByRole("combobox", { name: "Tag" }).selectOption("Critical");
    await expect(names).toHaveText(["Lab Base Station"]);
    await search.fill("freezer");
    await expect(page.getByRole("heading", { name: "No matching devices" })).toBeVisible();
    await page.getByRole("button", { name: "Show all devices" }).click();
    await expect(names).toHaveCount(3);
    await expect(search).toHaveValue("");

    await table.getByRole("link", { name: "Warehouse RAMAX" }).click();
    await expect(page).toHaveURL(/\/s\/devices\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Warehouse RAMAX" })).toBeVisible();
  });

  test("a Viewer sees the subscription's devices, never another subscription's", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto("/s/devices");
    const names = page.getByRole("table", { name: "Devices of this subscription" }).getByRole("rowheader");
    await expect(names).toHaveText(["Freezer Monitor", "Lab Base Station", "Warehouse RAMAX"]);
    await expect(page.getByText("Northwind Dock Station")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Devices", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("says the list could not be loaded and loads it again on Try again", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    let fail = true;
    await page.route("**/api/v1/devices", (route) =>
      fail ? route.fulfill({ status: 500, json: { success: false, data: [] } }) : route.fallback(),
    );
    await page.goto("/s/devices");
    await expect(page.getByRole("alert")).toContainText(
      "Unexpected error loading devices. Please try again.",
    );
    fail = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("rowheader")).toHaveCount(3);
  });
});

test.describe("the device map", () => {
  test("an Administrator sees the devices placed by coordinates, the list by location, and nothing fetched elsewhere", async ({
    page,
  }) => {
    const elsewhere: string[] = [];
    page.on(
      "request",
      (r) => void (r.url().startsWith(PORTAL) || r.url().startsWith("data:") || elsewhere.push(r.url())),
    );
    await signInAs(page, "admin@example.com");
    await page.goto("/devices/device-map");
    await expect(page.getByRole("heading", { level: 1, name: "Device Map" })).toBeVisible();
    const pins = page.getByRole("list", { name: "Devices on the map" }).getByRole("link");
    await expect(pins).toHaveCount(2);
    await expect(pins.first()).toHaveAccessibleName(
      /^(Lab Base Station|Warehouse RAMAX), (Pushing|Late|Offline)/,
    );
    await expect(page.getByText("2 devices placed by coordinates, the map zoomed to them.")).toBeVisible();
    const byLocation = page.getByRole("region", { name: "By location" });
    await expect(byLocation.getByRole("heading", { level: 3 })).toHaveText([
      "Building 2, Lab 204",
      "Kitchen",
      "Warehouse 1",
    ]);
    await expect(byLocation.getByRole("region", { name: "Kitchen" })).toContainText(
      "No coordinates: not on the map",
    );
    await expect(byLocation.getByRole("region", { name: "Building 2, Lab 204" })).toContainText(
      "42.3601, -71.0589",
    );
    await shot(page, "map");

    await page.getByRole("button", { name: "Show the whole world" }).click();
    await expect(pins).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Zoom to the devices" })).toBeVisible();
    await shot(page, "map-world");
    await page.getByRole("link", { name: /^Lab Base Station, / }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Lab Base Station" })).toBeVisible();
    expect(elsewhere).toEqual([]);
  });

  test("a Viewer sees the same map and list", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto("/devices/device-map");
    await expect(page.getByRole("list", { name: "Devices on the map" }).getByRole("link")).toHaveCount(2);
    await expect(page.getByRole("region", { name: "By location" }).getByRole("link")).toHaveCount(3);
  });

  test("sends a visitor who is not signed in to sign in first", async ({ page }) => {
    await page.goto("/devices/device-map");
    await page.waitForURL((url) => url.pathname === "/gateway");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/devices/device-map");
  });
});

test.describe("a link's page", () => {
  for (const email of ["admin@example.com", "viewer@example.com"]) {
    test(`${email.split("@")[0]}: opens from the device page and lists the devices connected through it`, async ({
      page,
    }) => {
      await signInAs(page, email);
      await page.goto(`/s/devices/${await idOf(page, "Lab Base Station")}`);
      await page.getByRole("link", { name: "Lab Network Link" }).click();
      await expect(page).toHaveURL(/\/links\/\d+$/);
      await expect(page.getByRole("heading", { level: 1, name: "Lab Network Link" })).toBeVisible();
      await expect(page.getByText("1 device is connected through this link.")).toBeVisible();
      const table = page.getByRole("table", { name: "Devices connected through Lab Network Link" });
      await expect(table.getByRole("rowheader")).toHaveText(["Lab Base Station"]);
      if (email.startsWith("admin")) await shot(page, "link");
    });
  }

  test("says a link that is not the subscription's was not found", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    for (const id of ["999999", "abc"]) {
      await page.goto(`/links/${id}`);
      await expect(page.getByRole("alert")).toHaveText("This link was not found in your subscription.");
    }
  });
});

test.describe("the explore page", () => {
  test("an Administrator opens a reading's history: chart, summary in the account's zone, range picker; ECharts loads only here", async ({
    page,
  }) => {
    const scripts = scriptsLoaded(page);
    await signInAs(page, "admin@example.com");
    await page.goto("/s/devices");
    await expect(page.getByRole("rowheader")).toHaveCount(3);
    await page.goto(`/s/devices/${await idOf(page, "Lab Base Station")}`);
    await expect(page.getByRole("heading", { level: 1, name: "Lab Base Station" })).toBeVisible();
    expect(await carriesECharts(scripts)).toBe(false);

    const history = page.waitForRequest((r) => r.url().includes("/channel-history/"));
    await page.locator(`a[href="/s/sensor-data/explore/${COLD_ROOM_TEMP}"]`).first().click();
    const asked = new URL((await history).url());
    const span = Number(asked.searchParams.get("end")) - Number(asked.searchParams.get("start"));
    expect(span).toBe(86_400);
    await expect(page.getByRole("heading", { level: 1, name: "Cold Room - Temperature" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Lab Base Station" })).toHaveAttribute(
      "href",
      /\/s\/devices\/\d+$/,
    );
    const chart = page.locator(".history-chart canvas");
    await expect(chart.first()).toBeVisible();
    const summary = page.locator(".chart-summary");
    await expect(summary).toContainText(/Lowest-?\d+(\.\d+)? °C/);
    await expect(page.getByText(/Times in America\/New_York\./)).toBeVisible();
    expect(await carriesECharts(scripts)).toBe(true);
    await shot(page, "explore");

    const range = page.getByRole("combobox", { name: "Range" });
    const week = page.waitForRequest((r) => r.url().includes("/channel-history/"));
    await range.selectOption("Last 7 days");
    const weekUrl = new URL((await week).url());
    expect(Number(weekUrl.searchParams.get("end")) - Number(weekUrl.searchParams.get("start"))).toBe(
      7 * 86_400,
    );
    await expect(chart.first()).toBeVisible();

    await range.selectOption("Custom range");
    const from = page.getByLabel("From (America/New_York)");
    const to = page.getByLabel("To (America/New_York)");
    await expect(from).not.toHaveValue("");
    await from.fill("2026-01-02T10:00");
    await to.fill("2026-01-01T10:00");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(from).toHaveAccessibleDescription("The start time must be before the end time.");
    await from.fill("2026-01-01T09:00");
    const custom = page.waitForRequest((r) => r.url().includes("/channel-history/"));
    await page.getByRole("button", { name: "Show" }).click();
    const customUrl = new URL((await custom).url());
    // 9:00 in New York in January is 14:00 UTC.
    expect(Number(customUrl.searchParams.get("start"))).toBe(Date.UTC(2026, 0, 1, 14) / 1000);
    await expectAccessible(page);
  });

  test("a Viewer sees the chart in the account's scale with times in UTC; an unknown channel is not found", async ({
    page,
  }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto(`/s/sensor-data/explore/${COLD_ROOM_TEMP}`);
    await expect(page.getByRole("heading", { level: 1, name: "Cold Room - Temperature" })).toBeVisible();
    await expect(page.locator(".history-chart canvas").first()).toBeVisible();
    await expect(page.getByText(/Times in UTC\./)).toBeVisible();
    await page.goto(`/s/sensor-data/explore/${RA_MAC}_NOSUCH_1200_0_1`);
    await expect(page.getByRole("alert")).toHaveText(
      "This sensor channel was not found in your subscription.",
    );
  });
});

test.describe("the device dialogs", () => {
  test("an Administrator downloads the last 24 hours as CSV under the server's file name, and sees each failure", async ({
    page,
  }) => {
    await signInAs(page, "admin@example.com");
    await page.goto(`/s/devices/${await idOf(page, "Lab Base Station")}`);
    const dialog = await openFromMenu(page, "Download Device Data", "Download Data");
    await expect(dialog.getByRole("combobox", { name: "Range" })).toHaveValue("24h");
    await shot(page, "download");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^Lab Base Station \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.csv$/,
    );
    const csv = await readFile((await download.path())!, "utf8");
    // A byte-order mark first, so that spreadsheet programs read UTF-8.
    expect(csv.split("\r\n")[0]).toMatch(/^\uFEFFTime \(UTC\),Base Station - Temperature \(°C\),/);
    expect(csv.split("\r\n").length).toBeGreaterThan(10);
    await expect(dialog.getByRole("status")).toHaveText(`Downloaded ${download.suggestedFilename()}.`);

    await dialog.getByRole("combobox", { name: "Range" }).selectOption("Custom range");
    await expect(dialog.getByLabel("From (UTC)")).not.toHaveValue("");
    await dialog.getByLabel("To (UTC)").fill("2020-01-01T00:00");
    await dialog.getByRole("button", { name: "Download" }).click();
    await expect(dialog.getByLabel("From (UTC)")).toHaveAccessibleDescription(
      "The start time must be before the end time.",
    );
    await dialog.getByRole("combobox", { name: "Range" }).selectOption("Last 7 days");
    await page.route("**/devices/data/download-device-data-by-date-range/**", (route) =>
      route.fulfill({ status: 500, body: "" }),
    );
    await dialog.getByRole("button", { name: "Download" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Unexpected error downloading data. Please try again.",
    );
    await expectAccessible(page);
  });

  test("a Viewer has Download Device Data only, and it downloads", async ({ page }) => {
    await signInAs(page, "viewer@example.com");
    await page.goto(`/s/devices/${await idOf(page, "Warehouse RAMAX")}`);
    await page.getByRole("button", { name: "Device actions" }).click();
    await expect(page.locator(".device-menu li").getByRole("button")).toHaveText(["Download Device Data"]);
    await page.getByRole("button", { name: "Download Device Data" }).click();
    const dialog = page.getByRole("dialog", { name: "Download Data" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Warehouse RAMAX .*\.csv$/);
  });

  test("an Administrator copies the device's public link, creates a new one, deletes it, and sees each failure", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: PORTAL });
    await signInAs(page, "admin@example.com");
    const id = await idOf(page, "Lab Base Station");
    await page.goto(`/s/devices/${id}`);
    const dialog = await openFromMenu(page, "Manage Public Link", "Public Link");
    const address = dialog.getByRole("textbox", { name: "Public link" });
    const current = `${PORTAL}/p/device/${DEMO.raDeviceHash}`;
    await expect(address).toHaveValue(current);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Copied!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(current);
    await expect(dialog.getByRole("link", { name: "Open the public page" })).toHaveAttribute("href", current);
    await shot(page, "public-link");

    // Stand-ins for the server's answers (see the note at the top).
    const path = `**/api/v1/device-data/public-link/${id}`;
    let hash = "N".repeat(43);
    await page.route(path, (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            json: { success: true, data: { publicLink: `/p/device/${hash}`, publicPageHash: hash } },
          })
        : route.fulfill({ json: { success: true, data: { publicLink: null, publicPageHash: null } } }),
    );
    await dialog.getByRole("button", { name: "Create New Link" }).click();
    await expect(address).toHaveValue(`${PORTAL}/p/device/${hash}`);
    hash = "M".repeat(43);
    await dialog.getByRole("button", { name: "Create New Link" }).click();
    await expect(address).toHaveValue(`${PORTAL}/p/device/${hash}`);
    await dialog.getByRole("button", { name: "Delete Public Link" }).click();
    await expect(dialog).toContainText("This device has no public link.");
    await expect(address).toHaveCount(0);

    await page.unroute(path);
    await page.route(path, (route) => route.fulfill({ status: 500, json: { success: false, data: [] } }));
    await dialog.getByRole("button", { name: "Create Public Link" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Error creating public link. Please try again.");
    await page.keyboard.press("Escape");
    await page.reload();
    const again = await openFromMenu(page, "Manage Public Link", "Public Link");
    await again.getByRole("button", { name: "Delete Public Link" }).click();
    await expect(again.getByRole("alert")).toHaveText("Error deleting public link. Please try again.");
    // Nothing reached the server: the demo link is the same.
    await expect(again.getByRole("textbox", { name: "Public link" })).toHaveValue(current);
    await expectAccessible(page);
  });

  test("an Administrator of Northwind updates the location, with the spec's messages, and goes to the map", async ({
    page,
  }) => {
    await signInAs(page, "owner@northwind.example.com");
    const dock = (await devicesOf(page)).find((d) => d.deviceType === "RA8")!;
    await page.goto(`/s/devices/${dock.id}`);
    let dialog = await openFromMenu(page, "Update Location", "Update Location");
    const location = dialog.getByRole("textbox", { name: "Location" });
    const lat = dialog.getByRole("textbox", { name: "Latitude" });
    const lng = dialog.getByRole("textbox", { name: "Longitude" });
    await expect(location).toHaveValue("Dock 3");
    await location.fill("   ");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Either location or coordinates (lat/lng) must be provided",
    );
    await lat.fill("95");
    await lng.fill("10");
    await lng.press("Enter");
    await expect(lat).toHaveAccessibleDescription("Latitude must be a number from -90 to 90.");
    await shot(page, "location");

    await page.route("**/devices/data/change-device-location", (route) =>
      route.fulfill({ status: 500, body: "" }),
    );
    await location.fill("Dock 4");
    await lat.fill("");
    await lng.fill("");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Unexpected error updating location. Please try again.",
    );
    await page.unroute("**/devices/data/change-device-location");

    await location.fill("  Dock 4, north gate ");
    await lat.fill(" 47.6062");
    await lng.fill("-122.3321 ");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator(".device-header")).toContainText("Dock 4, north gate");

    dialog = await openFromMenu(page, "Update Location", "Update Location");
    await expect(dialog.getByRole("textbox", { name: "Latitude" })).toHaveValue("47.6062");
    await dialog.getByRole("link", { name: "Go to Map" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Device Map" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Devices on the map" }).getByRole("link")).toHaveCount(1);
    await expect(page.getByRole("region", { name: "Dock 4, north gate" })).toContainText(
      "47.6062, -122.3321",
    );

    // Back as seeded (the coordinates stay: an empty field keeps its stored value).
    await page.goto(`/s/devices/${dock.id}`);
    dialog = await openFromMenu(page, "Update Location", "Update Location");
    await dialog.getByRole("textbox", { name: "Location" }).fill("Dock 3");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
  });

  test("says why Download Device Data is unavailable on a plan without CSV export", async ({ page }) => {
    await signInAs(page, "owner@northwind.example.com");
    const dock = (await devicesOf(page)).find((d) => d.deviceType === "RA8")!;
    await page.goto(`/s/devices/${dock.id}`);
    const dialog = await openFromMenu(page, "Download Device Data", "Download Data");
    await expect(dialog).toContainText("Downloading device data is not included in your subscription plan.");
    await expect(dialog.getByRole("button", { name: "Download" })).toHaveCount(0);
  });
});

test.describe("the /p/ fallback", () => {
  test("says the device could not be shown and offers Order Lookup and sign-in", async ({ page }) => {
    await page.goto("/p/");
    await expect(
      page.getByRole("heading", { level: 1, name: "This device could not be shown" }),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Order Lookup" })).toHaveAttribute(
      "href",
      "/p/order-quote/search",
    );
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/gateway");
    await shot(page, "p-fallback");
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("the list, map, link, explore pages, dialogs and /p/ fit 390 px", async ({ page }) => {
    await page.goto("/p/");
    await expectFitsPhone(page, "p-fallback");
    await signInAs(page, "admin@example.com");
    const id = await idOf(page, "Lab Base Station");
    for (const [path, name] of [
      ["/s/devices", "list"],
      ["/devices/device-map", "map"],
      [`/s/sensor-data/explore/${COLD_ROOM_TEMP}`, "explore"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectFitsPhone(page, name);
    }
    await page.goto(`/s/devices/${id}`);
    await page.getByRole("link", { name: "Lab Network Link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Lab Network Link" })).toBeVisible();
    await expectFitsPhone(page, "link");
    await page.goto(`/s/devices/${id}`);
    for (const [item, title, name] of [
      ["Update Location", "Update Location", "location"],
      ["Manage Public Link", "Public Link", "public-link"],
      ["Download Device Data", "Download Data", "download"],
    ] as const) {
      const dialog = await openFromMenu(page, item, title);
      await expectFitsPhone(page, name);
      await dialog.getByRole("button", { name: "Close" }).last().click();
      await expect(dialog).toBeHidden();
    }
  });
});
