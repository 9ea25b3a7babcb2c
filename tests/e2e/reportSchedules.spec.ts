import { expect, test } from "./fixtures.ts";
import { hydrated, linkFromMailbox, signInAs } from "./helpers.ts";

// A scheduled report as a person uses it: an Administrator schedules a report by keyboard,
// the demo portal runs its scheduler at the send time (POST /dev/report-schedules/run, the
// injected clock, demo and this computer only), the mail arrives in /dev/mailbox with its
// PDF, and its unsubscribe link takes the address off at the press of a button.

test("an Administrator schedules a report and it arrives in the mailbox with its PDF", async ({ page }) => {
  test.setTimeout(90_000);
  const to = `sched-${Math.random().toString(36).slice(2, 8)}@example.net`;
  await signInAs(page, "admin@example.com");
  // A seeded report by name: other specs make and delete reports of their own meanwhile.
  const reports = (await (await page.request.get("/api/v1/reports")).json()).data as {
    id: number;
    name: string;
  }[];
  const reportId = reports.find((r) => r.name === "Lab Climate — Audit Week")!.id;
  await page.goto(`/s/reports/${reportId}`);
  await hydrated(page);
  const form = page.getByRole("form", { name: "Add a schedule" });
  await form.getByLabel("Send").selectOption({ label: "Daily" });
  await form.getByLabel("Files").selectOption({ label: "PDF" });
  await form.getByLabel("Other addresses").fill(to);
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Save schedule" })).toBeFocused();
  await page.keyboard.press("Enter");
  const item = page.locator(".schedule-item", { hasText: `To ${to}` });
  await expect(item).toContainText("Daily at 07:00");

  const list = (await (await page.request.get(`/api/v1/reports/${reportId}/schedules`)).json()).data as {
    schedules: { id: number; emails: string[]; nextRunAt: number }[];
  };
  const mine = list.schedules.find((s) => s.emails.includes(to))!;
  const at = new Date((mine.nextRunAt + 30) * 1000).toISOString();
  expect((await page.request.post(`/dev/report-schedules/run?at=${at}`)).status()).toBe(200);

  const unsubscribe = await linkFromMailbox(page, to);
  const mail = page.locator("article", { hasText: `To ${to}` }).first();
  await expect(mail.getByRole("heading")).toContainText("Yesterday");
  const pdf = mail.getByRole("list", { name: "Attachments" }).getByRole("link");
  await expect(pdf).toHaveText(/\.pdf$/);
  const file = await page.request.get((await pdf.getAttribute("href"))!);
  expect(file.headers()["content-type"]).toBe("application/pdf");

  await page.goto(new URL(unsubscribe).pathname + new URL(unsubscribe).search);
  await page.getByRole("button", { name: "Unsubscribe" }).press("Enter");
  await expect(page.getByRole("status")).toHaveText("You will no longer receive this report.");

  await page.goto(`/s/reports/${reportId}`);
  await hydrated(page);
  await expect(page.locator(".schedule-item").filter({ hasText: "nobody" }).first()).toBeVisible();
  await page.request.delete(`/api/v1/report-schedules/${mine.id}`);
});
