// `npm run bench`: builds, starts the server on a temporary data dir, and prints what each
// public page loads before any interaction (JS and CSS, gzip and brotli), time to first
// byte of each shell, and the time of a few API calls. Timings are printed, never asserted.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "../server/seed/demo.ts";
import { demoDeviceKey } from "../server/seed/keys.ts";
import { pageWeight } from "./bench/weight.ts";
import { median, timeRequest } from "./bench/timing.ts";
import { chromium } from "@playwright/test";
import { CHROMIUM, SLOW_LINK, cardPainted, formUsable, slowLinkMs } from "./bench/paint.ts";
import { csvBench } from "./bench/csv.ts";
import { chartDataBench } from "./bench/chartData.ts";
import { reportExportsBench } from "./bench/reportExports.ts";
import { kioskSoak, reportChartShown } from "./bench/kioskSoak.ts";
import { alertsBench } from "./bench/alerts.ts";
import { BADGE_TABLE_HEAD, badgesBench } from "./bench/badges.ts";
import { compliancePdfBench } from "./bench/compliancePdf.ts";

const PORT = Number(process.env["BENCH_PORT"] ?? 4490);
const BASE = `http://127.0.0.1:${PORT}`;
const PAGES = [
  ["report", `/public/report/${DEMO.reportHash}?tempScale=F&timezone=UTC`],
  ["device (RA)", `/p/device/${DEMO.raDeviceHash}`],
  ["device (other)", `/public/device/${DEMO.otherDeviceHash}`],
  ["quote", `/p/quote/QUO-${DEMO.openQuoteId}`],
  ["order", `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`],
  ["quote pay-as-guest", `/p/quote/pay-as-guest/${DEMO.openQuoteToken}`],
  ["order pay-as-guest", `/p/order/pay-as-guest/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`],
  ["lookup", "/p/order-quote/search"],
  ["sign-in", "/gateway"],
  ["signed-in home", "/user/welcome"],
  ["signed-in app", "/s/orders/list"],
] as const;

if (spawnSync("npm", ["run", "build"], { stdio: "inherit" }).status !== 0) process.exit(1);
const dataDir = mkdtempSync(join(tmpdir(), "portal-bench-"));
const server = spawn("node", ["server/index.ts"], {
  env: {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR: dataDir,
    SIMULATOR: "0",
    DEMO_SAMPLE_DAYS: process.env["BENCH_SAMPLE_DAYS"] ?? "365",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const stop = () => {
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
};
try {
  await waitForHealth();
  console.log(
    "\n| page | JS gzip | JS br | CSS gzip | CSS br | TTFB median (ms) |\n|---|---:|---:|---:|---:|---:|",
  );
  for (const [name, path] of PAGES) {
    const w = await pageWeight(BASE, path);
    const ttfb = median(await timeRequest(`${BASE}${path}`, 20));
    const kb = (n: number) => (n / 1024).toFixed(1) + " KB";
    console.log(
      `| ${name} | ${kb(w.js.gzip)} | ${kb(w.js.br)} | ${kb(w.css.gzip)} | ${kb(w.css.br)} | ${ttfb.toFixed(1)} |`,
    );
  }
  await slowLinkTable();
  // A wall display for weeks: 1,000 kiosk refreshes a second apart (about 17 minutes).
  await kioskSoak(BASE);
  console.log("\n| API call | median (ms) |\n|---|---:|");
  const push = () => ({
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Device ${demoDeviceKey("00:1A:2B:3C:4D:03")}`,
    },
    body: JSON.stringify({
      macAddress: "00:1A:2B:3C:4D:03",
      readings: [{ channelKey: "00:1A:2B:3C:4D:03_WS2001_1300_0_1", value: -18 }],
    }),
  });
  const form = (fields: Record<string, string>) => () => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const signIn = form({ emailAddress: "viewer@example.com", password: "demo-password-1" });
  const signedIn = await fetch(`${BASE}/gateway/submit`, signIn());
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const withSession = () => ({ headers: { cookie } });
  for (const [name, url, init] of [
    ["GET /healthz", `${BASE}/healthz`, undefined],
    ["GET /runtime-config.json", `${BASE}/runtime-config.json`, undefined],
    ["POST /api/v1/device-data/push (1 reading)", `${BASE}/api/v1/device-data/push`, push],
    [
      "POST /gateway/check-email",
      `${BASE}/gateway/check-email`,
      form({ emailAddress: "viewer@example.com" }),
    ],
    ["POST /gateway/submit (scrypt, 32 MiB)", `${BASE}/gateway/submit`, signIn],
    ["GET /api/v1/session (signed in)", `${BASE}/api/v1/session`, withSession],
    ["GET /api/v1/session/subscription/stats", `${BASE}/api/v1/session/subscription/stats`, withSession],
  ] as const) {
    console.log(`| ${name} | ${median(await timeRequest(url, 20, init)).toFixed(1)} |`);
  }
  // Status badges under load (issue 36: p95 at most 50 ms).
  console.log(BADGE_TABLE_HEAD);
  await badgesBench(BASE);
} finally {
  stop();
}
// The device data download at the scale, in the bench's own databases.
await csvBench();
// The report chart data call at the scale, in the bench's own databases.
await chartDataBench();
// The report exports: server SVG render, PDF, and the report CSV over a year.
await reportExportsBench();
// Alerting: breach to hand-off, silent devices found, push cost with 1,000 rules.
await alertsBench();
// The audit PDF of a year (issue 36): compliance figures and the data's SHA-256.
await compliancePdfBench();

/** What a visitor on the slow link waits for, in Chromium with an empty cache (median of 3). */
async function slowLinkTable() {
  const browser = await chromium.launch(CHROMIUM);
  const rows = [
    ["order card shows its data", `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`, cardPainted],
    ["quote card shows its data", `/p/quote/${DEMO.openQuoteToken}`, cardPainted],
    ["lookup form can be used", "/p/order-quote/search", formUsable],
    ["report chart shows (server SVG)", `/public/report/${DEMO.reportHash}`, reportChartShown],
  ] as const;
  console.log(
    `\n| on the slow link (${SLOW_LINK.latency} ms, ${(SLOW_LINK.downloadThroughput * 8) / 1000} kbit/s) | median (ms) |\n|---|---:|`,
  );
  try {
    for (const [name, path, ready] of rows) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) times.push(await slowLinkMs(browser, `${BASE}${path}`, ready));
      console.log(`| ${name} | ${median(times).toFixed(0)} |`);
    }
  } finally {
    await browser.close();
  }
}

async function waitForHealth() {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (
      await fetch(`${BASE}/healthz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}
