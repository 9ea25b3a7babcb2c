// `npm test`: type check and lint, unit tests and build, server tests, browser tests.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
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

type Step = [name: string, command: string[]];

/**
 * Steps in order; the steps of one group run side by side, since each leaves a core free
 * (the type check and Vitest's unit project beside lint and the build, which nothing in the
 * other step reads). A group's output is printed step by step once all of it is done.
 */
const GROUPS: Step[][] = [
  [
    ["type check", ["npm", "run", "typecheck"]],
    ["lint", ["npm", "run", "lint"]],
  ],
  [
    ["unit tests", ["npx", "vitest", "run", "--project", "unit", ...vitestReport("unit")]],
    ["build", ["npm", "run", "build"]],
  ],
  [["server tests", ["npx", "vitest", "run", "--project", "server", ...vitestReport("server")]]],
  [["browser tests", ["npx", "playwright", "test"]]],
];

/**
 * Node's compile cache in one folder for every step: the portals, scripts and workers the
 * server and browser tests start compile the same modules again and again (a portal's start
 * took a fifth less CPU with it, 4.5 s against 5.5 s; docs/decisions.md).
 */
const ENV = {
  ...process.env,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
  NODE_COMPILE_CACHE:
    process.env["NODE_COMPILE_CACHE"] ?? join(process.cwd(), "test-results", "node-compile-cache"),
};

/** Runs one step; `shown` passes its output straight through, otherwise it is kept and returned. */
function run([name, [cmd, ...args]]: Step, shown: boolean) {
  const started = Date.now();
  const child = spawn(cmd!, args, { stdio: shown ? "inherit" : ["ignore", "pipe", "pipe"], env: ENV });
  const output: Buffer[] = [];
  child.stdout?.on("data", (d: Buffer) => output.push(d));
  child.stderr?.on("data", (d: Buffer) => output.push(d));
  // A command that cannot start ends with 'close' (code -2) after this: the step fails.
  child.on("error", (e) => output.push(Buffer.from(`${e.message}\n`)));
  return new Promise<{ name: string; ok: boolean; seconds: number; output: string }>((resolve) =>
    child.on("close", (code) =>
      resolve({
        name,
        ok: code === 0,
        seconds: (Date.now() - started) / 1000,
        output: Buffer.concat(output).toString(),
      }),
    ),
  );
}

// A report left by an earlier run must not speak for this one.
for (const project of ["unit", "server"]) rmSync(`test-results/vitest-${project}.json`, { force: true });

const results: { name: string; ok: boolean; seconds: number }[] = [];
const chromiumReady = ensureChromium();
for (const group of GROUPS) {
  const steps = group.filter(([name]) => name !== "browser tests" || chromiumReady);
  if (steps.length < group.length) results.push({ name: "browser tests", ok: false, seconds: 0 });
  if (steps.length === 1) console.log(`\n=== ${steps[0]![0]} ===`);
  const done = await Promise.all(steps.map((step) => run(step, steps.length === 1)));
  for (const r of done) {
    if (steps.length > 1) process.stdout.write(`\n=== ${r.name} ===\n${r.output}`);
    results.push(r);
  }
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
