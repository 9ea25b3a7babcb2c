import { chromium } from "playwright";
const base = "http://localhost:4499";
const browser = await chromium.launch({ executablePath: "/usr/lib/chromium/chromium-headless-shell", args: ["--no-sandbox"] });
for (const width of [1280, 390]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${base}/gateway`);
  await page.getByLabel(/email/i).first().fill("admin@example.com");
  await page.keyboard.press("Enter");
  await page.getByLabel(/password/i).first().fill("demo-password-1");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(1500);
  const reports = await page.evaluate(async () => (await (await fetch("/api/v1/reports")).json()).data);
  await page.goto(`${base}/s/reports/${reports[0].id}`);
  await page.getByRole("heading", { name: "Send by mail" }).waitFor();
  if (width === 1280) {
    const form = page.getByRole("form", { name: "Add a schedule" });
    await form.getByLabel("Other addresses").fill("ops@example.net");
    await form.getByRole("button", { name: "Save schedule" }).click();
    await page.getByText(/^Weekly on Monday/).waitFor();
  }
  await page.getByRole("heading", { name: "Send by mail" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/sched-${width}.png`, fullPage: true });
  await page.close();
}
await browser.close();
