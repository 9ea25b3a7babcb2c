import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures.ts";
import { copyTemplate } from "./globalSetup.ts";
import { startServer, type ServerProcess } from "./serverProcess.ts";
import { DEMO } from "../../server/seed/demo.ts";

// Kiosk mode on a wall display: a portal of its own (port 4415, outside the shared ones) that
// the test stops and starts again, with a 1-second refresh so the back-off is seen quickly.
const PORTAL = "http://127.0.0.1:4415";
const KIOSK = `${PORTAL}/public/report/${DEMO.reportHash}?kiosk=1&theme=dark&refreshSeconds=1`;

test.describe.configure({ mode: "serial" });

let server: ServerProcess | undefined;
let dir: string;

const env = () => ({
  ...process.env,
  PORT: "4415",
  DATA_DIR: join(dir, "data"),
  DEMO: "1",
  // The template's three days: the server writes no further history in the background.
  DEMO_SAMPLE_DAYS: "3",
  SIMULATOR: "0",
});

async function start() {
  server = await startServer(PORTAL, "kiosk test portal", env());
}

async function stop() {
  await server?.stop();
  server = undefined;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), "portal-kiosk-"));
  copyTemplate(join(dir, "data"));
  await start();
});

test.afterAll(async () => {
  await stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("shows the chart and large current values without header, footer or chart library", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto(KIOSK);
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
  await expect(page.locator(".report-tile")).toHaveCount(3);
  await expect(page.locator(".report-tile-value").first()).toHaveText(/\d.*°F/);
  await expect(page.locator("body > header")).toBeHidden();
  await expect(page.locator("body > footer")).toBeHidden();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(new URL(page.url()).searchParams.get("kiosk")).toBe("1");
  // Several refreshes later still no React and no ECharts in the page.
  await page.waitForTimeout(3000);
  expect(scripts.join("\n")).not.toMatch(/react|echarts|ReportChart|mountReportChart/i);
  expect(await page.locator("#report-chart").getAttribute("data-live")).toBeNull();
  await page.screenshot({ path: "test-results/screens/kiosk-dark.png" });
});

test("keeps the last chart while the server is away, says since when, and recovers by itself", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(KIOSK);
  await expect(page.locator(".report-tile")).toHaveCount(3);
  // The chart is the last chart only once it has come: the tiles may arrive before it.
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
  await stop();
  const stale = page.locator("#report-stale");
  await expect(stale).toBeVisible({ timeout: 15_000 });
  await expect(stale).toHaveText(/^stale since \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
  await expect(page.locator(".report-tile")).toHaveCount(3);
  await expect(page.getByText("Invalid Report Link")).toBeHidden();
  await page.screenshot({ path: "test-results/screens/kiosk-stale.png" });
  await start();
  await expect(stale).toBeHidden({ timeout: 90_000 });
  await expect(page.locator(".report-tile")).toHaveCount(3);
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
});
