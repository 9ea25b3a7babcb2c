import { createServer, type IncomingHttpHeaders } from "node:http";
import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { expect, test } from "./fixtures.ts";
import { deviceIds, hydrated, LIVE_MS, signInAs } from "./helpers.ts";

// Alerting end to end (issue 34): a rule made in /s/alerts, a device key's push past it, the
// alarm on the device page and the list, the email in the demo mailbox, the signed webhook
// received, acknowledgement from the email's link with a note, and the alarm clearing when
// the readings return. The Freezer Monitor's one channel is pushed here and nowhere else.

const MAC = "00:1A:2B:3C:4D:03";
const CHANNEL = `${MAC}_WS2001_1300_0_1`;
const NORMAL = -18.4;
const RULE = "Chest freezer warm (e2e)";

async function push(page: Page, celsius: number) {
  const res = await page.request.post("/api/v1/device-data/push", {
    headers: { authorization: `Device ${demoDeviceKey(MAC)}` },
    data: { macAddress: MAC, readings: [{ channelKey: CHANNEL, value: celsius }] },
  });
  expect(res.status()).toBe(200);
}

/** A webhook receiver on this computer (the demo allows loopback webhooks). */
function receiver() {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  const started = new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`),
    ),
  );
  return { got, started, stop: () => server.close() };
}

test.describe.configure({ mode: "serial" });

test("a rule made in the app raises an alarm on a push, mails it, posts a signed webhook, and is acknowledged from the email", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const hook = receiver();
  const hookUrl = await hook.started;
  await signInAs(page, "admin@example.com");
  const secret = (await (await page.request.get("/api/v1/alerts/webhook-secret")).json()).data
    .secret as string;
  await page.goto("/s/alerts");
  await hydrated(page);
  await page.getByRole("button", { name: "New rule" }).click();
  const dialog = page.getByRole("dialog", { name: "New alert rule" });
  await dialog.getByLabel("Name").fill(RULE);
  await dialog.getByLabel("Device", { exact: true }).selectOption({ label: "Freezer Monitor" });
  await dialog.getByLabel("Channel", { exact: true }).selectOption({ label: "Chest Freezer - Temperature" });
  // The administrator's scale is Celsius.
  await dialog.getByLabel(/High limit/).fill("-10");
  await dialog.getByLabel(/Dead band/).fill("1");
  await dialog.getByLabel("Other email addresses").fill("freezer-oncall@example.net");
  await dialog.getByLabel(/Webhook URLs/).fill(hookUrl);
  await dialog.getByRole("button", { name: "Save rule" }).click();
  await expect(dialog).toBeHidden();
  const rules = page
    .getByRole("region", { name: "Rules" })
    .or(page.locator("section", { has: page.getByRole("heading", { name: "Rules" }) }));
  await expect(rules.getByRole("row", { name: new RegExp(RULE.replace(/[()]/g, "\\$&")) })).toContainText(
    "above -10 °C",
  );

  try {
    await push(page, -5);
    const ids = await deviceIds(page);
    await page.goto(`/s/devices/${ids["Freezer Monitor"]}`);
    await expect(page.locator(".unit-card.in-alarm")).toContainText("In alarm", { timeout: LIVE_MS + 5000 });
    await expect(page.getByRole("heading", { name: "1 alarm needs attention" })).toBeVisible();

    await page.goto("/s/alerts");
    const row = page.getByRole("row").filter({ hasText: RULE }).first();
    await expect(row).toContainText("-5.00 °C");
    await expect(row).toContainText("In alarm");

    // The webhook: signed with the subscription's secret over the exact body.
    await expect.poll(() => hook.got.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const call = hook.got[0]!;
    const signature = `sha256=${createHmac("sha256", secret).update(call.body).digest("hex")}`;
    expect(call.headers["x-portal-signature"]).toBe(signature);
    expect(JSON.parse(call.body)).toMatchObject({
      type: "alarm.triggered",
      alarm: { ruleName: RULE, value: -5 },
    });

    // The email, and its acknowledge link: opening it changes nothing, the button with a note does.
    await page.goto("/dev/mailbox");
    const mail = page.locator("article", { hasText: "To freezer-oncall@example.net" }).first();
    await expect(mail).toContainText(`[ALARM] ${RULE}`);
    const ackLink = (await mail.getByRole("link", { name: /alerts\/acknowledge/ }).getAttribute("href"))!;
    await page.goto(ackLink);
    await expect(page.getByRole("heading", { name: "Acknowledge alarm" })).toBeVisible();
    await hydrated(page);
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await expect(page.getByText("Write a note saying what was done.")).toBeVisible();
    await page.getByLabel("What was done").fill("Lid was open; closed it.");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await expect(page.getByRole("heading", { name: "Alarm acknowledged" })).toBeVisible();

    await page.goto("/s/alerts");
    await expect(page.getByRole("row").filter({ hasText: RULE }).first()).toContainText(
      "Acknowledged by freezer-oncall@example.net",
    );
    // Back inside the line past the dead band: the alarm clears.
    await push(page, NORMAL);
    await expect
      .poll(
        async () =>
          (await (await page.request.get("/api/v1/alerts?state=active")).json()).data.alarms.filter(
            (a: { ruleName: string }) => a.ruleName === RULE,
          ).length,
        { timeout: 10_000 },
      )
      .toBe(0);
  } finally {
    await push(page, NORMAL);
    const list = (await (await page.request.get("/api/v1/alerts/rules")).json()).data.rules as {
      id: number;
      name: string;
    }[];
    for (const r of list.filter((x) => x.name === RULE))
      await page.request.delete(`/api/v1/alerts/rules/${r.id}`);
    hook.stop();
  }
});

test("a Viewer sees the alarm and the rule but no rule editor and no Acknowledge", async ({ page }) => {
  const name = "Freezer viewer check (e2e)";
  await signInAs(page, "admin@example.com");
  const made = await page.request.post("/api/v1/alerts/rules", {
    data: { name, channelKey: CHANNEL, condition: { type: "above", high: -10, scale: "C" }, notify: {} },
  });
  expect(made.status()).toBe(200);
  const id = (await made.json()).data.id as number;
  try {
    await push(page, -4);
    await signInAs(page, "viewer@example.com");
    await page.goto("/s/alerts");
    await hydrated(page);
    const alarm = page.getByRole("row").filter({ hasText: name }).first();
    await expect(alarm).toContainText("In alarm");
    await expect(page.getByRole("heading", { name: "Rules", exact: true })).toBeVisible();
    await expect(page.getByText("Administrators and Managers add and change rules.")).toBeVisible();
    await expect(page.getByRole("button", { name: "New rule" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Acknowledge/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `History of ${name}` }).first()).toBeVisible();
  } finally {
    await push(page, NORMAL);
    await signInAs(page, "admin@example.com");
    await page.request.delete(`/api/v1/alerts/rules/${id}`);
  }
});
