import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { SILENT_CHANNEL } from "../../server/seed/history.ts";
import { PASSWORD } from "./helpers.ts";
import type { PublicReport, ReportData } from "../../src/api/reports.ts";

// The public report page (issue 10): the server's SVG chart first, then the interactive
// island; scale and zone in the address; legend, excursions, CSV and PDF links.
const REPORT = `/public/report/${DEMO.reportHash}`;
const API = "/api/v1/device-data/public/report";

async function metadata(page: Page): Promise<PublicReport> {
  const res = await page.request.get(`${API}/${DEMO.reportHash}?refresh=1`);
  return ((await res.json()) as { data: PublicReport }).data;
}

/** The interactive chart has taken over from the server's SVG. */
async function live(page: Page) {
  await expect(page.locator("#report-chart")).toHaveAttribute("data-live", "1", { timeout: 20_000 });
}

/** The first excursion's worst value cell ('12.3°F at Nov 22, 2026, 3:07 PM'). */
const worstCell = (page: Page) => page.locator("#report-excursions tbody tr").first().locator("td").nth(4);
const startCell = (page: Page) => page.locator("#report-excursions tbody tr").first().locator("td").nth(1);

test("shows a shared report: name, chart, legend, excursions and download links", async ({ page }) => {
  const report = await metadata(page);
  await page.goto(REPORT);
  await expect(page.getByRole("heading", { level: 1, name: report.reportDetails.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "CSV" })).not.toHaveAttribute("aria-disabled", "true");
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
  const legend = page.getByRole("list", { name: "Legend" }).getByRole("listitem");
  await expect(legend).toHaveText(report.channelKeyList.map((c) => report.sensorMap[c.channelKey]!.name));
  await expect(legend.first()).toHaveText(/^.+ - .+$/);
  await expect(page.getByText("No sensor channels currently available.")).toBeHidden();
  await expect(page.getByRole("heading", { name: "Excursions" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Cold room too warm" }).first()).toBeVisible();
  const csv = new URL((await page.getByRole("link", { name: "CSV" }).getAttribute("href"))!);
  expect(csv.pathname).toBe("/api/v1/device-data/public/samples/csv");
  expect(csv.searchParams.get("publicHash")).toBe(DEMO.reportHash);
  expect(csv.searchParams.get("reportName")).toBe(report.reportDetails.name);
  const pdf = new URL((await page.getByRole("link", { name: "PDF" }).getAttribute("href"))!);
  expect(pdf.pathname).toBe("/public/report-pdf/");
  expect(pdf.searchParams.get("channelIds")).toBe(report.channelIdList.join(","));
  expect(new URL(page.url()).searchParams.get("tempScale")).toBe("F");
  expect(new URL(page.url()).searchParams.get("timezone")).toBe("UTC");
  await live(page);
  await page.screenshot({ path: "/tmp/shots-RU/report-light.png", fullPage: true });
});

test("shows 'Invalid Report Link' for a hash that names no report", async ({ page }) => {
  await page.goto("/public/report/not-a-real-report-hash-000000000000");
  await expect(page.getByRole("alert")).toHaveText(/Invalid Report Link/);
  await expect(page.getByRole("alert")).toContainText("Ask whoever shared it for the current one.");
  await expect(page.locator("#report-chart")).toBeHidden();
  // No scale, zone or downloads for a report that is not there.
  await expect(page.getByRole("group", { name: "Temperature" })).toBeHidden();
  await expect(page.getByRole("link", { name: "CSV" })).toBeHidden();
});

test("switches between Fahrenheit and Celsius and keeps the choice in the address", async ({ page }) => {
  await page.goto(`${REPORT}?tempScale=F&timezone=UTC`);
  await expect(worstCell(page)).toHaveText(/°F/);
  const inF = Number.parseFloat((await worstCell(page).textContent())!);
  await page.getByRole("radio", { name: "Celsius" }).check();
  await expect(worstCell(page)).toHaveText(/°C/);
  const inC = Number.parseFloat((await worstCell(page).textContent())!);
  expect(Math.abs((inC * 9) / 5 + 32 - inF)).toBeLessThan(0.2);
  await expect(page).toHaveURL(/tempScale=C/);
  // The chart too: a tooltip value in °C.
  await live(page);
  await page.locator("#report-chart").hover({ position: { x: 300, y: 150 } });
  await expect(page.locator("#report-chart").getByText(/°C/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("radio", { name: "Celsius" })).toBeChecked();
  await expect(worstCell(page)).toHaveText(/°C/);
});

test.describe("in a browser on New York's clock", () => {
  test.use({ timezoneId: "America/New_York" });

  test("labels the interactive chart on the report zone's hours, 12-hour, and draws the cold room's limits as dashed lines in its colour", async ({
    page,
  }) => {
    // The cold room's 'too warm' and 'too cold' share the °F axis with the incubator: a band
    // across the axis would put the incubator's normal 99 °F in the cold room's 'too warm'.
    const report = await metadata(page);
    const cold = report.channelKeyList[0]!.color;
    const zone = "Asia/Kolkata";
    await page.goto(`${REPORT}?tempScale=F&timezone=${encodeURIComponent(zone)}`);
    await live(page);
    // The interactive chart; tests/server/reportExports.test.ts holds the server's picture to
    // the same clock and marks.
    const chart = page.locator("#report-chart .report-live svg");
    const texts = await chart.locator("text").allTextContents();
    const times = texts.filter((t) => /^\d{1,2}:\d{2} [AP]M$/.test(t));
    const dates = texts.filter((t) => /^[A-Z][a-z]{2} \d{1,2}$/.test(t));
    expect(times.length + dates.length).toBeGreaterThan(2);
    expect(dates.length).toBeLessThanOrEqual(1);
    // Ticks on Kolkata's round hours (5:30 ahead of UTC), though the browser's clock is New
    // York's: no ':30', and every hour a multiple of the step between ticks.
    const hours = times.map((t) => {
      const [, h, m, half] = /^(\d+):(\d+) ([AP])M$/.exec(t)!;
      expect(m, t).toBe("00");
      return (Number(h) % 12) + (half === "P" ? 12 : 0);
    });
    const steps = hours
      .slice(1)
      .map((h, i) => (h - hours[i]! + 24) % 24)
      .filter((d) => d > 0);
    const step = Math.min(...steps);
    for (const h of hours) expect(h % step, `${h}:00 on a ${step}-hour step`).toBe(0);
    await expect(chart.locator(`path[stroke-dasharray][stroke="${cold}"]`)).toHaveCount(2);
    await expect(chart.locator('path[fill="#ffcdd2"], path[fill="#bbdefb"]')).toHaveCount(0);
    await expect(chart.getByText("Cold room too warm")).toBeVisible();
    // Near the chart's right end the tooltip names a time of the last few hours in Kolkata.
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width - 80, box.y + box.height / 2);
    const stamp = page
      .locator("#report-chart")
      .getByText(/\d{4}, \d{1,2}:\d{2}\s[AP]M/)
      .first();
    await expect(stamp).toBeVisible();
    const hour = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      month: "short",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
    });
    const recent = [0, 1, 2, 3].map((h) =>
      hour
        .format(Date.now() - h * 3_600_000)
        .replace(/\s/gu, " ")
        .replace(/ ([AP]M)$/, ""),
    );
    const shown = ((await stamp.textContent()) ?? "").replace(/\s/gu, " ");
    expect(
      recent.some((r) => shown.includes(`${r}:`)),
      `${shown} in ${recent.join(" | ")}`,
    ).toBe(true);
  });
});
test("says a channel had no readings in the window, not that it spent 0 s in its ranges", async ({
  page,
}) => {
  // The audit week (30 to 23 days back) is older than the three days of samples the browser
  // tests' demo holds: a window without readings.
  const res = await page.request.get(`${API}/data/${DEMO.fixedReportHash}`);
  const series = ((await res.json()) as { data: { series: { stats: unknown }[] } }).data.series;
  expect(series.map((s) => s.stats)).toEqual(series.map(() => null));
  await page.goto(`/public/report/${DEMO.fixedReportHash}`);
  const blocks = page.locator(".report-channel-excursions");
  await expect(blocks.first()).toContainText("No readings in this window.");
  for (const block of await blocks.all()) await expect(block).toContainText("No readings in this window.");
  await expect(page.getByText(/Time in threshold ranges/)).toHaveCount(0);
});
test("draws the interactive chart's text light on the dark theme", async ({ page }) => {
  await page.goto(`${REPORT}?theme=dark`);
  await live(page);
  const fills = await page
    .locator("#report-chart .report-live svg text")
    .evaluateAll((texts) => texts.map((t) => t.getAttribute("fill")).filter((f) => f && f !== "none"));
  expect(fills.length).toBeGreaterThan(5);
  expect(new Set(fills)).toEqual(new Set(["#d0d4da"]));
});
test("switches the time zone: excursion, axis and tooltip times move, the address keeps it", async ({
  page,
}) => {
  await page.goto(`${REPORT}?tempScale=F&timezone=UTC`);
  await expect(startCell(page)).toHaveText(/\d/);
  const inUtc = await startCell(page).textContent();
  await live(page);
  const axis = () => page.locator("#report-chart .report-live svg text").allTextContents();
  const utcAxis = await axis();
  await page.getByLabel("Time zone").selectOption("Asia/Kolkata");
  await expect(page).toHaveURL(/timezone=Asia%2FKolkata/);
  await expect(startCell(page)).not.toHaveText(inUtc!);
  // Kolkata is 5:30 ahead: the minutes of the excursion's start move by 30.
  expect(Number(/:(\d\d)/.exec((await startCell(page).textContent())!)![1])).toBe(
    (Number(/:(\d\d)/.exec(inUtc!)![1]) + 30) % 60,
  );
  await expect.poll(axis).not.toEqual(utcAxis);
  await page.locator("#report-chart").hover({ position: { x: 300, y: 150 } });
  await expect(
    page
      .locator("#report-chart")
      .getByText(/\d{1,2}:\d{2}\s[AP]M/)
      .first(),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Time zone")).toHaveValue("Asia/Kolkata");
});

test("falls back to F and UTC for values it does not know", async ({ page }) => {
  await page.goto(`${REPORT}?tempScale=K&timezone=Mars%2FOlympus&kiosk=0`);
  await expect(page.getByRole("radio", { name: "Fahrenheit" })).toBeChecked();
  await expect(page.getByLabel("Time zone")).toHaveValue("UTC");
  await expect(page).toHaveURL(/tempScale=F&timezone=UTC/);
  expect(new URL(page.url()).searchParams.get("kiosk")).toBe("0");
});

test("says 'No sensor channels currently available.' for a report without channels", async ({ page }) => {
  await page.route(`**${API}/${DEMO.reportHash}*`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: PublicReport };
    const data = {
      ...body.data,
      sensorMap: {},
      channelKeyList: [],
      channelIdList: [],
      thresholdRangeAssociations: [],
    };
    await route.fulfill({ response: res, json: { ...body, data } });
  });
  await page.route(`**${API}/data/${DEMO.reportHash}*`, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: ReportData };
    await route.fulfill({ response: res, json: { ...body, data: { ...body.data, series: [] } } });
  });
  await page.goto(REPORT);
  await expect(page.getByText("No sensor channels currently available.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Legend" }).getByRole("listitem")).toHaveCount(0);
});

test("leaves a gap where the incubator's sensor was offline", async ({ page }) => {
  const report = await metadata(page);
  const color = report.channelKeyList.find((c) => c.channelKey === SILENT_CHANNEL)!.color;
  await page.goto(REPORT);
  await live(page);
  // One path per stretch of readings, or one path that moves (M) more than once.
  const moves = await page
    .locator(`#report-chart .report-live svg path[stroke="${color}"]`)
    .evaluateAll((paths) => paths.map((p) => (p.getAttribute("d") ?? "").match(/M/g)?.length ?? 0));
  expect(moves.length === 0 ? 0 : moves.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
});

test("marks the incubator's silent hours as 'No data' in the server's chart and in the live one", async ({
  page,
}) => {
  // Before the island: its chunk never arrives, the server's SVG stays.
  await page.route(/mountReportChart/, (route) => route.abort());
  await page.goto(REPORT);
  const titles = page.locator("#report-chart .report-svg g.no-data title");
  await expect(titles.filter({ hasText: "(Incubator - Temperature)" })).toHaveCount(1);
  expect(await titles.allTextContents()).toContainEqual(
    expect.stringMatching(/^No data from [A-Z][a-z]{2} \d+, \d{4}, .+ to .+ \(Incubator - Temperature\)$/),
  );
  await expect(page.locator("#report-chart .report-svg g.no-data text").first()).toHaveText("No data");
  await page.unroute(/mountReportChart/);
  await page.goto(REPORT);
  await live(page);
  await expect(
    page.locator("#report-chart .report-live svg text", { hasText: /^No data$/ }).first(),
  ).toBeVisible();
});

test("names the threshold ranges in the legend on a 390 px phone, not over the chart's lines", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(REPORT);
  const ranges = page.getByRole("list", { name: "Threshold ranges" }).getByRole("listitem");
  await expect(ranges.filter({ hasText: /^Cold room too warm: above \d+(\.\d)?°F$/ })).toHaveCount(1);
  await live(page);
  await expect(page.locator("#report-chart svg text", { hasText: "Cold room too warm" })).toHaveCount(0);
});

test("says the window's times and zone under the report's name, not its length again", async ({ page }) => {
  await page.goto(`${REPORT}?timezone=America/New_York`);
  await expect(page.locator("#report-window")).toHaveText(
    /^[A-Z][a-z]{2} \d+, \d+:\d{2} [AP]M – [A-Z][a-z]{2} \d+, \d+:\d{2} [AP]M · America\/New York$/,
  );
});

test("downloads the CSV the link names, in the chosen scale", async ({ page }) => {
  await page.goto(`${REPORT}?tempScale=C&timezone=UTC`);
  const link = page.getByRole("link", { name: "CSV" });
  await expect(link).not.toHaveAttribute("aria-disabled", "true");
  const href = (await link.getAttribute("href"))!;
  const url = new URL(href);
  // A known hour of the seed: the last full hour of the window.
  const end = Number(url.searchParams.get("endTime"));
  url.searchParams.set("startTime", String(end - 3600));
  const inC = await (await page.request.get(url.href)).text();
  url.searchParams.set("temperatureScale", "F");
  const inF = await (await page.request.get(url.href)).text();
  const [headC, ...rowsC] = inC.trim().split(/\r?\n/);
  const [headF, ...rowsF] = inF.trim().split(/\r?\n/);
  expect(headC).toMatch(/^\uFEFF?Time \(UTC\),/);
  expect(headC).toContain("(°C)");
  expect(headF).toContain("(°F)");
  // The first row with a reading of the first channel, the same row in both files.
  const at = rowsC.findIndex((r) => r.split(",")[1] !== "");
  expect(at).toBeGreaterThanOrEqual(0);
  const [time, c] = rowsC[at]!.split(",");
  const [timeF, f] = rowsF[at]!.split(",");
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  expect(timeF).toBe(time);
  expect(Math.abs((Number(c) * 9) / 5 + 32 - Number(f))).toBeLessThan(0.2);
});

test("shows 'Invalid Report Link' for a paused link and an expired one", async ({ page }) => {
  const api = page.request;
  await api.post("/gateway/submit", { form: { emailAddress: "admin@example.com", password: PASSWORD } });
  const { data: list } = (await (await api.get("/api/v1/report-channels")).json()) as {
    data: { channelId: number }[];
  };
  const created = (await (
    await api.post("/api/v1/reports", {
      data: {
        name: "Paused link test",
        timeInterval: 86_400,
        startDate: null,
        endDate: null,
        channels: [{ channelId: list[0]!.channelId, color: "#1e88e5", axis: 0 }],
        thresholds: [],
      },
    })
  ).json()) as { data: { id: number } };
  const id = created.data.id;
  const linked = (await (await api.post(`/api/v1/reports/${id}/public-link`, { data: {} })).json()) as {
    data: { link: { publicHash: string } | null };
  };
  const path = `/public/report/${linked.data.link!.publicHash}`;
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Paused link test" })).toBeVisible();
  await api.patch(`/api/v1/reports/${id}/public-link`, { data: { paused: true } });
  await page.goto(path);
  await expect(page.getByRole("alert")).toHaveText(/Invalid Report Link/);
  await api.patch(`/api/v1/reports/${id}/public-link`, { data: { paused: false, expiresAt: 1_000_000_000 } });
  await page.goto(path);
  await expect(page.getByRole("alert")).toHaveText(/Invalid Report Link/);
  await api.delete(`/api/v1/reports/${id}`);
});

test("fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(REPORT);
  await expect(page.locator("#report-chart svg").first()).toBeVisible();
  await live(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "/tmp/shots-RU/report-390.png", fullPage: true });
});

test("shows every excursion column on a 390 px phone, each value under its column's name", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(REPORT);
  const cells = page.locator("#report-excursions tbody tr").first().getByRole("cell");
  await expect(cells).toHaveCount(5);
  for (const [i, column] of ["Range", "Start", "End", "Duration", "Worst value"].entries()) {
    const cell = cells.nth(i);
    await expect(cell).toHaveAttribute("data-label", column);
    const box = (await cell.boundingBox())!;
    // Inside the screen, not in a strip that scrolls sideways.
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(page.locator("#report-excursions thead th").first()).not.toBeInViewport();
});
