import type { Page } from "@playwright/test";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { REPORT_CHANNELS } from "../../server/seed/reports.ts";
import { pdfText } from "../support/pdfText.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";
import { onOwnPortal } from "./ownPortalSuite.ts";

// The alarm story on the report (issue 36): an alarm raised by a device key's push on a channel
// of the demo report, acknowledged with a note in /s/alerts, the owner's choice to show notes
// in the report form, then the mark with its note on the shared report's chart (the server's
// picture and the live chart) and in its PDF, and a comment pinned on the explore page. On a
// portal of its own: the alarm and the comment would otherwise show on other specs' charts.

const OWN = 4431;
const MAC = "00:1A:2B:3C:4D:01";
const CHANNEL = REPORT_CHANNELS[0]!.key;
const RULE = "Lab fridge warm (e2e)";
const NOTE = "Door left open";
const COMMENT = "door open for delivery";

async function push(page: Page, celsius: number) {
  const res = await page.request.post("/api/v1/device-data/push", {
    headers: { authorization: `Device ${demoDeviceKey(MAC)}` },
    data: { macAddress: MAC, readings: [{ channelKey: CHANNEL, value: celsius }] },
  });
  expect(res.status()).toBe(200);
}

test.describe("the alarm story on a portal of its own", () => {
  onOwnPortal(OWN);

  test("an acknowledged alarm shows with its note on the report's chart and in its PDF", async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, "admin@example.com");
    const rule = await page.request.post("/api/v1/alerts/rules", {
      data: {
        name: RULE,
        channelKey: CHANNEL,
        condition: { type: "above", high: 8, scale: "C", deadBand: 0.5 },
        notify: { emails: [], webhookUrls: [] },
      },
    });
    expect(rule.status()).toBe(200);
    await push(page, 4);
    await push(page, 12);

    // Acknowledged like a person on site does it: in the alarm list, with a note.
    await page.goto("/s/alerts");
    await hydrated(page);
    await page.getByRole("button", { name: `Acknowledge ${RULE}` }).click();
    const dialog = page.getByRole("dialog", { name: "Acknowledge alarm" });
    await dialog.getByLabel("What was done").fill(NOTE);
    await dialog.getByRole("button", { name: "Acknowledge" }).click();
    await expect(dialog).toBeHidden();

    // The owner shows notes and names on the public report.
    const reports = (await (await page.request.get("/api/v1/reports")).json()).data as {
      id: number;
      link: { publicHash: string } | null;
    }[];
    const report = reports.find((r) => r.link?.publicHash === DEMO.reportHash)!;
    await page.goto(`/s/reports/${report.id}`);
    await hydrated(page);
    const show = page.getByRole("switch", { name: "Show alarm notes and names on the public report" });
    await expect(show).not.toBeChecked();
    await show.check();
    await page.getByRole("button", { name: "Save report" }).click();
    await expect(page).toHaveURL(/\/s\/reports$/);

    // A visitor: the server's picture first (its mark titled with the whole story), then the live chart.
    const visitor = await page
      .context()
      .browser()!
      .newPage({ baseURL: `http://127.0.0.1:${OWN}` });
    await visitor.goto(`/public/report/${DEMO.reportHash}`);
    const chart = visitor.locator("#report-chart");
    await expect(chart).toHaveAttribute("data-live", "1", { timeout: 20_000 });
    await expect(chart.locator("svg text", { hasText: `Ack: ${NOTE}` })).toBeVisible();
    // The trigger came seconds before: its line is drawn, its label gives way to the later one's.
    await expect(chart.locator("svg text", { hasText: /^Alarm$/ })).toHaveCount(0);
    const svg = await (await visitor.request.get(`/public/report-svg/${DEMO.reportHash}`)).text();
    expect(svg).toContain(`Acknowledged by Ada Admin: ${NOTE}`);
    expect(svg).not.toContain("admin@example.com");
    for (const width of [1280, 390]) {
      await visitor.setViewportSize({ width, height: 800 });
      await visitor.screenshot({ path: `/tmp/shots-alarms/report-${width}.png`, fullPage: true });
    }

    const pdfHref = await visitor.getByRole("link", { name: "PDF" }).getAttribute("href");
    const pdf = pdfText(Buffer.from(await (await visitor.request.get(pdfHref!)).body()));
    expect(pdf).toContain("Alarms and comments");
    expect(pdf).toContain(`Acknowledged by Ada Admin: ${NOTE}`);
    expect(pdf).toContain(`Alarm: ${RULE}`);
    await visitor.close();
  });

  test("a manager pins a comment on the explore chart and the report shows it", async ({ page }) => {
    await signInAs(page, "manager@example.com");
    await page.goto(`/s/sensor-data/explore/${CHANNEL}`);
    await hydrated(page);
    const section = page.getByRole("region", { name: "Alarms and comments" });
    await expect(section.getByText(`Acknowledged by Ada Admin (admin@example.com): ${NOTE}`)).toBeVisible();
    // A click on the chart picks a time; the text is typed.
    await page
      .locator(".history-chart canvas")
      .first()
      .click({ position: { x: 400, y: 150 } });
    await expect(section.getByLabel(/^Time/)).not.toHaveValue("");
    await section.getByLabel("Comment", { exact: true }).fill(COMMENT);
    await section.getByRole("button", { name: "Pin comment" }).click();
    await expect(section.getByText(`Comment on`).filter({ hasText: COMMENT })).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/shots-alarms/explore-${width}.png`, fullPage: true });
    }
    await page.goto(`/public/report/${DEMO.reportHash}`);
    await expect(page.locator("#report-chart")).toHaveAttribute("data-live", "1", { timeout: 20_000 });
    await expect(page.locator("#report-chart svg text", { hasText: COMMENT })).toBeVisible();
  });
});
