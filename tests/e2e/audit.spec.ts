import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "./fixtures.ts";
import { deviceIds, signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";

// The audit trail (issue 37) in the browser: an Administrator's changes show in /s/audit with
// their old and new values, the chain checks out, and the CSV export downloads. On a portal of
// its own (port 4429), so the edits touch no other spec's devices.

const OWN = 4429;
const PHONE = { width: 390, height: 844 };

test.describe("the audit trail", () => {
  const portal = onOwnPortal(OWN);

  test("shows a rename and a sensor adjustment with old and new values, checks the chain and exports the CSV", async ({
    page,
  }) => {
    await signInAs(page, "owner@northwind.example.com");
    await page.goto(`/s/devices/${(await deviceIds(page))["Northwind Dock Station"]}`);
    const name = page.getByRole("textbox", { name: "Device name" });
    const renamed = page.waitForResponse((r) => r.url().includes("/update-device/"));
    await name.fill("Dock North");
    await page.keyboard.press("Enter");
    await renamed;
    await page.getByRole("button", { name: "Settings of Dock Station" }).click();
    const dialog = page.getByRole("dialog", { name: "Sensor Settings" });
    await dialog.getByRole("textbox", { name: /^Temperature adjustment/ }).fill("0.5");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Audit" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
    const rows = page.locator(".audit-table tbody tr");
    await expect(rows.first()).toContainText("Changed sensor settings");
    await expect(rows.first()).toContainText(/adjust temperature:\s*0\s*→\s*0\.5/);
    const rename = rows.filter({ hasText: "Renamed a device" });
    await expect(rename).toContainText(/name:\s*Northwind Dock Station\s*→\s*Dock North/);
    await expect(rename).toContainText("owner@northwind.example.com");

    // Filters narrow the list: the action filter leaves the rename alone.
    await page.getByLabel("Action").selectOption({ label: "Renamed a device" });
    await expect(rows).toHaveCount(1);

    await page.getByRole("button", { name: "Check integrity" }).click();
    // Compared with the heads this portal keeps outside the database, in the viewer's zone.
    await expect(page.getByRole("status").filter({ hasText: "Intact" })).toContainText(
      /Intact: all \d+ rows fit their chain, which matches its heads kept outside the database up to \w+ \d+, \d{4}, \d+:\d\d [AP]M\./,
    );

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = await readFile((await (await download).path())!, "utf8");
    expect(csv).toContain("Renamed a device");
    expect(csv).toContain("name: Northwind Dock Station → Dock North");
    expect(csv).not.toContain("Changed sensor settings"); // the filter holds for the export too

    // The device page's Device History is the trail of that device alone.
    await page.goto(`/s/devices/${(await deviceIds(page))["Dock North"]}`);
    await page.getByRole("button", { name: "Device actions" }).click();
    await page.getByRole("link", { name: "Device History" }).click();
    await expect(page.getByRole("combobox", { name: "Device", exact: true })).toHaveValue(/^\d+$/);
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "Signed in" })).toHaveCount(0);
  });

  test("reads as cards on a phone, where the Security page links to it", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "owner@northwind.example.com");
    await page.goto("/s/security");
    await page.getByRole("link", { name: "Open the audit trail" }).click();
    const first = page.locator(".audit-table tbody tr").first();
    await expect(first).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.screenshot({ path: "test-results/screens/phone-audit.png", fullPage: true });
  });

  test("names a chain cut back, from a head the portal kept outside the database", async ({ page }) => {
    await signInAs(page, "owner@northwind.example.com");
    await page.goto("/s/audit");
    const check = page.getByRole("button", { name: "Check integrity" });
    const status = page.getByRole("status").filter({ hasText: "ntact" });
    await check.click();
    await expect(status).toContainText("Intact:");
    // What the database no longer shows, an anchor still does: a head sealed at row 9999 of
    // every chain (written beside the portal's own anchors; this portal has no AUDIT_KEY).
    const forged = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({
        what: "audit anchor",
        subscriptionId: i + 1,
        seq: 9999,
        hash: "a".repeat(64),
        firstSeq: 1,
        at: "2026-11-29T12:00:00.000Z",
      }),
    );
    await appendFile(join(portal().dataDir, "audit-anchors.jsonl"), `${forged.join("\n")}\n`);
    await check.click();
    await expect(status).toContainText(
      /^Not intact at row 9999: rows \d+–9999 had been sealed by November 29, 2026, \d+:00 [AP]M \(anchored outside the database\) and are gone: the chain was cut back\.$/,
    );
  });

  test("tells a Manager the trail is for Administrators, and has no menu link for them", async ({ page }) => {
    await signInAs(page, "manager@example.com");
    await page.goto("/s/audit");
    await expect(page.getByText("Only Administrators can see the audit trail.")).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Audit" }),
    ).toHaveCount(0);
  });
});
