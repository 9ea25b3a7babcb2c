import type { Page } from "@playwright/test";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";

// Visitor subscriptions and badges end to end (issue 36): a visitor subscribes on a public
// report, confirms from the demo mailbox with the page's button, gets the alarm message when a
// device key's push raises it, and unsubscribes in one click; the badge follows the alarm.
// The report is made here over the Warehouse RAMAX's pump voltage, which no other spec pushes.

const MAC = "00:1A:2B:3C:4D:02";
const REPORT = "Pump watch (e2e)";
const VISITOR = "pump-visitor@example.net";

async function push(page: Page, channelKey: string, value: number) {
  const res = await page.request.post("/api/v1/device-data/push", {
    headers: { authorization: `Device ${demoDeviceKey(MAC)}` },
    data: { macAddress: MAC, readings: [{ channelKey, value }] },
  });
  expect(res.status()).toBe(200);
}

/** The newest message to `to` whose subject matches, as /dev/mailbox shows it. */
async function mailLink(page: Page, subject: RegExp, href: RegExp): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        await page.goto("/dev/mailbox");
        const mail = page
          .locator("article", { hasText: `To ${VISITOR}` })
          .filter({ hasText: subject })
          .first();
        if (!(await mail.count())) return "";
        const hrefs = await mail
          .getByRole("link")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
        link = hrefs.find((h) => href.test(h)) ?? "";
        return link;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return link;
}

test("a visitor subscribes, confirms, gets the alarm message and unsubscribes in one click; the badge follows", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, "admin@example.com");
  const options = (await (await page.request.get("/api/v1/report-channels")).json()).data as {
    channelId: number;
    channelKey: string;
  }[];
  const pump = options.find((o) => o.channelKey.startsWith(`${MAC}_A2B001_`))!;
  const made = await page.request.post("/api/v1/reports", {
    data: {
      name: REPORT,
      timeInterval: 86_400,
      startDate: null,
      endDate: null,
      channels: [{ channelId: pump.channelId, color: "#1e88e5", axis: 0 }],
      thresholds: [],
    },
  });
  expect(made.status()).toBe(200);
  const reportId = (await made.json()).data.id as number;
  const shared = await page.request.post(`/api/v1/reports/${reportId}/public-link`, { data: {} });
  const hash = (await shared.json()).data.link.publicHash as string;
  const rule = await page.request.post("/api/v1/alerts/rules", {
    data: {
      name: "Pump voltage high (e2e)",
      channelKey: pump.channelKey,
      condition: { type: "above", high: 20, scale: "C" },
      notify: { emails: [] },
    },
  });
  expect(rule.status()).toBe(200);
  const badge = async () => (await (await page.request.get(`/public/report/${hash}/badge.svg`)).text()) ?? "";

  try {
    await expect.poll(badge).toContain(`${REPORT}: OK</title>`);

    await page.goto(`/public/report/${hash}`);
    const form = page.getByRole("region", { name: "Tell me when something goes wrong" });
    await form.getByLabel("Email address").fill(VISITOR);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(form.getByRole("status")).toHaveText("Check your inbox to confirm your subscription.");

    await page.goto(await mailLink(page, /Confirm alarm messages/, /\/visitors\/confirm\?token=/));
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Confirm alarm messages" })).toBeVisible();
    await expect(page.getByText(REPORT)).toBeVisible();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("status")).toHaveText(/You are subscribed/);
    await expect(page.getByRole("link", { name: "Open the report" })).toHaveAttribute(
      "href",
      /^\/public\/report\//,
    );

    // The demo simulator keeps pushing this channel with a drift around the value it last read,
    // so a tick that read before this push can undo it; push until the alarm shows.
    await expect
      .poll(() => push(page, pump.channelKey, 30).then(badge))
      .toContain(`${REPORT}: alarm</title>`);
    const stop = await mailLink(page, /\[ALARM\] Pump watch \(e2e\)/, /\/visitors\/unsubscribe\?token=/);
    await expect(page.locator("article", { hasText: "[ALARM] Pump watch (e2e)" }).first()).toContainText(
      "an alarm triggered on Warehouse RAMAX",
    );

    await page.goto(stop);
    await hydrated(page);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("status")).toHaveText(/You are unsubscribed/);

    // The owner sees the count and turns subscriptions off: the report shows no form then.
    await page.goto(`/s/reports/${reportId}`);
    const visitors = page.getByRole("group", { name: "Visitor subscriptions" });
    await expect(visitors).toContainText("0 confirmed subscribers");
    await visitors.getByRole("switch", { name: "Visitors may subscribe" }).uncheck();
    await expect(visitors.getByRole("switch", { name: "Visitors may subscribe" })).not.toBeChecked();
    await page.goto(`/public/report/${hash}`);
    await expect(page.getByRole("heading", { name: REPORT })).toBeVisible();
    await page.waitForTimeout(1500);
    await expect(page.getByRole("heading", { name: "Tell me when something goes wrong" })).toBeHidden();
  } finally {
    await push(page, pump.channelKey, 11.8);
  }
  await expect.poll(() => push(page, pump.channelKey, 11.8).then(badge)).toContain(`${REPORT}: OK</title>`);
  const ruleId = (await rule.json()).data.id as number;
  await page.request.delete(`/api/v1/alerts/rules/${ruleId}`);
  await page.request.delete(`/api/v1/reports/${reportId}`);
});
