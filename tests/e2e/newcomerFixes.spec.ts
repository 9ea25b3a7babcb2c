import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";
import { DEMO } from "../../server/seed/demo.ts";

// What a newcomer tripped over (the review of 2026-11-29): the keyboard's focus fell to the page
// body after a refused submit (the busy button disabled itself), and the audit trail read as
// field names and JSON. On a portal of its own (port 4483): it signs in wrongly on purpose and
// writes audit rows.

const OWN = 4483;
const PHONE = { width: 390, height: 844 };

/** What has the keyboard's focus: its tag and accessible text, "BODY" when nothing has. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return !el || el === document.body ? "BODY" : `${el.tagName} ${(el.textContent ?? "").trim()}`;
  });

test.describe("the newcomer's review, fixed", () => {
  onOwnPortal(OWN);

  test("keeps the focus on Log In after a refused password sent with the keyboard", async ({ page }) => {
    await page.goto("/gateway");
    await hydrated(page);
    const card = page.getByRole("form", { name: "Account Login" });
    await card.getByLabel("Email").fill("viewer@example.com");
    await page.keyboard.press("Enter");
    await card.getByLabel("Password").fill("not-the-password");
    // Tab past Forgot Password to the button, then press it with the keyboard.
    const logIn = card.getByRole("button", { name: "Log In" });
    while ((await focused(page)) !== "BUTTON Log In") await page.keyboard.press("Tab");
    const answered = page.waitForResponse((r) => r.url().endsWith("/gateway/submit"));
    await page.keyboard.press("Enter");
    await answered;
    await expect(card.getByText("Incorrect email or password.")).toBeVisible();
    await expect(logIn).toBeFocused();
  });

  test("says an export's filters in words, keeps the focus on the audit tools, and clears the check when filters change", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "admin@example.com");
    await page.goto("/s/audit");
    const exportCsv = page.getByRole("button", { name: "Export CSV" });
    await exportCsv.focus();
    const download = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    await download;
    await expect(exportCsv).toBeFocused();

    // Again, with the export among the actions the filter offers.
    await page.reload();
    const check = page.getByRole("button", { name: "Check integrity" });
    await check.focus();
    await page.keyboard.press("Enter");
    const status = page.getByRole("status").filter({ hasText: "Intact" });
    await expect(status).toContainText(/Intact: all \d+ rows fit/);
    await expect(check).toBeFocused();

    // Changing a filter clears the check's answer: it spoke of the list before.
    await page.getByLabel("Action").selectOption({ label: "Exported the audit trail" });
    await expect(status).toHaveCount(0);
    const row = page.locator(".audit-table tbody tr").first();
    await expect(row).toContainText(/Filters: none \(times in [A-Za-z_/]+\)/);
    await expect(row).not.toContainText("→");
    // The phone's card names the zone of its time.
    await expect(row.locator("td").first()).toHaveAttribute("data-label", /^Time \([A-Za-z_/]+\)$/);

    // From after To: the page says the dates are the wrong way round.
    await page.getByLabel("From", { exact: true }).fill("2026-11-29");
    await page.getByLabel("To", { exact: true }).fill("2026-11-01");
    await expect(page.getByText("The From date is after the To date.", { exact: false })).toBeVisible();
  });
});

test("says under the legend which channel had no data and when, on a 390 px phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(`/public/report/${DEMO.reportHash}`);
  await expect(page.locator("#report-gaps")).toContainText(
    /No data: Incubator - Temperature, [A-Z][a-z]{2} \d+, \d{4}, \d{1,2}:\d\d [AP]M – /,
  );
});
