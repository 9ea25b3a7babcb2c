// `npm test`: type check, lint, unit, server, build and browser tests, in that order.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { chromiumPath, FULL_CHROMIUM, HEADLESS_SHELL } from "./chromiumPath.ts";
import { printBrowserDigest } from "./e2eDigest.ts";
import { printVitestDigest } from "./vitestDigest.ts";

/**
 * The browser tests run in Debian's chromium headless shell (the full chromium works too, a
 * quarter slower): installed when missing and we are root; otherwise says what to install.
 */
function ensureChromium(): boolean {
  if (process.env["CHROMIUM_PATH"] || existsSync(HEADLESS_SHELL)) return existsSync(chromiumPath());
  if (process.getuid?.() !== 0) {
    if (existsSync(FULL_CHROMIUM)) return true;
    console.error(
      `Browser tests need Debian's chromium at ${HEADLESS_SHELL} or ${FULL_CHROMIUM}.\nInstall it with: sudo apt-get install -y chromium-headless-shell\n(or set CHROMIUM_PATH to a Chromium binary).`,
    );
    return false;
  }
  console.log("Installing Debian's chromium headless shell for the browser tests...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  spawnSync("apt-get", ["install", "-y", "-qq", "chromium-headless-shell"], { stdio: "inherit", env });
  return existsSync(chromiumPath());
}

/** Vitest's own output plus a JSON report, read back for the digest at the end. */
const vitestReport = (project: string) => [
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=test-results/vitest-${project}.json`,
];

const STEPS: [string, string[]][] = [
  ["type check", ["npm", "run", "typecheck"]],
  ["lint", ["npm", "run", "lint"]],
  ["unit tests", ["npx", "vitest", "run", "--project", "unit", ...vitestReport("unit")]],
  ["server tests", ["npx", "vitest", "run", "--project", "server", ...vitestReport("server")]],
  ["build", ["npm", "run", "build"]],
  ["browser tests", ["npx", "playwright", "test"]],
];

// A report left by an earlier run must not speak for this one.
for (const project of ["unit", "server"]) rmSync(`test-results/vitest-${project}.json`, { force: true });

const results: { name: string; ok: boolean; seconds: number }[] = [];
const chromiumReady = ensureChromium();
for (const [name, [cmd, ...args]] of STEPS) {
  if (name === "browser tests" && !chromiumReady) {
    results.push({ name, ok: false, seconds: 0 });
    continue;
  }
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(cmd!, args, {
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
  });
  results.push({ name, ok: run.status === 0, seconds: (Date.now() - started) / 1000 });
}

printVitestDigest("unit tests", "test-results/vitest-unit.json");
printVitestDigest("server tests", "test-results/vitest-server.json");
printBrowserDigest();
console.log("\n=== summary ===");
for (const r of results)
  console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(14)} ${r.seconds.toFixed(1)} s`);
const failed = results.filter((r) => !r.ok).length;
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
