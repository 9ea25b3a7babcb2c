import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./scripts/chromiumPath.ts";

import { PORTAL } from "./tests/e2e/portals.ts";

// Browser tests drive the built site served by the real server in Debian's chromium (its
// headless shell when installed: the same engine at about three quarters of the test time).
// globalSetup starts the two portals every spec shares (tests/e2e/portals.ts), side by side.
export { CONFIGURED, CONFIGURED_ACCOUNT, PORTAL } from "./tests/e2e/portals.ts";

// Every visitor of the browser tests is 127.0.0.1: the per-client limit of whole-window report
// reads (server/core/walkGate.ts) would count them all as one. The portals inherit this.
process.env["REPORT_WALKS_PER_CLIENT"] ??= "0";

// Node's compile cache (its code cache, and for .ts files the stripped source too) for every
// process the run starts: the seed, each portal, the workers. A portal's start spent a fifth of
// its CPU compiling the same modules as the last one (5.5 s against 4.5 s; docs/decisions.md).
// `npm test` sets the same folder for all its steps, so the server tests' children fill it too.
process.env["NODE_COMPILE_CACHE"] ??= join(process.cwd(), "test-results", "node-compile-cache");

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "tests/e2e",
  // The shared portals, and the demo seeded once for the portals specs start for themselves
  // (tests/e2e/ownPortal.ts).
  globalSetup: "./tests/e2e/globalSetup.ts",
  outputDir: "test-results/e2e",
  // CI runs on a busy 2-core machine beside two servers: give waits room there, not locally,
  // so a slow test still shows up as slow here.
  timeout: process.env["CI"] ? 60_000 : 30_000,
  expect: { timeout: process.env["CI"] ? 10_000 : 5_000 },
  // Two, one per core: a full run on three took 929 s against 716 s on two, each test 1.9 times
  // as long (docs/decisions.md, "a third browser worker").
  workers: 2,
  // CI's machine is busy beside two servers: a test that fails once runs again, and both
  // outcomes land in the JSON report, whose digest scripts/test.ts prints last (flaky ones too).
  retries: process.env["CI"] ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  use: {
    baseURL: PORTAL,
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
    // A trace only for a test's retry (CI retries a failure once): recording one for every
    // test took a quarter of the browser tests' time, most of it screenshots of each frame.
    // Locally, run the failing file again with --trace on.
    trace: "on-first-retry",
    // No transitions: an accessibility scan never catches a colour halfway through a fade.
    reducedMotion: "reduce",
  },
});
