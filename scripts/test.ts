// `npm test`: type check, lint and unit tests side by side, then server, build and browser tests.
import { spawn, spawnSync } from "node:child_process";
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

type Step = [string, string[]];

/**
 * Steps in order; the steps of one group run side by side (the three quick checks use one
 * core each for a few seconds, together about half their time one after another), each
 * printing its output when it ends.
 */
const GROUPS: Step[][] = [
  [
    ["type check", ["npm", "run", "typecheck"]],
    ["lint", ["npm", "run", "lint"]],
    ["unit tests", ["npx", "vitest", "run", "--project", "unit", ...vitestReport("unit")]],
  ],
  [["server tests", ["npx", "vitest", "run", "--project", "server", ...vitestReport("server")]]],
  [["build", ["npm", "run", "build"]]],
  [["browser tests", ["npx", "playwright", "test"]]],
];

const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" };
interface Result {
  name: string;
  ok: boolean;
  seconds: number;
}

/** Runs a step alone, its output straight through. */
function runAlone([name, [cmd, ...args]]: Step): Result {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(cmd!, args, { stdio: "inherit", env });
  return { name, ok: run.status === 0, seconds: (Date.now() - started) / 1000 };
}

/** Runs a step beside others, its output kept and printed under its name when it ends. */
function runBeside([name, [cmd, ...args]]: Step): Promise<Result> {
  const started = Date.now();
  const child = spawn(cmd!, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const output: Buffer[] = [];
  child.stdout.on("data", (d: Buffer) => output.push(d));
  child.stderr.on("data", (d: Buffer) => output.push(d));
  return new Promise((resolve) => {
    let ended = false;
    const done = (ok: boolean) => {
      if (ended) return;
      ended = true;
      console.log(`\n=== ${name} ===`);
      process.stdout.write(Buffer.concat(output));
      resolve({ name, ok, seconds: (Date.now() - started) / 1000 });
    };
    child.on("error", (e) => (output.push(Buffer.from(`${e.message}\n`)), done(false)));
    child.on("close", (code) => done(code === 0));
  });
}

// A report left by an earlier run must not speak for this one.
for (const project of ["unit", "server"]) rmSync(`test-results/vitest-${project}.json`, { force: true });

const results: Result[] = [];
const chromiumReady = ensureChromium();
for (const group of GROUPS) {
  if (group.length > 1) {
    results.push(...(await Promise.all(group.map(runBeside))));
    continue;
  }
  const step = group[0]!;
  if (step[0] === "browser tests" && !chromiumReady) results.push({ name: step[0], ok: false, seconds: 0 });
  else results.push(runAlone(step));
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
