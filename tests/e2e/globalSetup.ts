import { execFile } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { forgetScans } from "./axe.ts";
import { CONFIGURED, CONFIGURED_ACCOUNT, PORTAL } from "./portals.ts";
import { answers, startServer, type ServerProcess } from "./serverProcess.ts";

/**
 * The demo, seeded once per run with three days of samples and its report history, that every
 * portal of the browser tests starts from a copy of: seeding took each of them 8–20 s on this
 * machine (PGlite's initdb alone 10 s), a copy under one.
 */
export const DEMO_TEMPLATE = join(process.cwd(), ".e2e-data-template");

/**
 * The two portals every spec shares. 1: the default one-origin portal with the demo and its
 * simulator; emailed links point at PUBLIC_ORIGIN (else http://localhost:4410), and the tests
 * browse 127.0.0.1. 2: hosts configured at run time (ACCOUNT_ORIGIN, API_ORIGIN) on the same
 * build, to prove no rebuild is needed; demo mode is off, and its pages read no record.
 */
const SHARED = [
  {
    base: PORTAL,
    env: {
      PORT: "4410",
      DATA_DIR: ".e2e-data",
      DEMO_SAMPLE_DAYS: "3",
      // The product's default cadence. Every 2 s, the simulator took 4.4 % of a core more than
      // the idle portal (7.8 % against 3.4 %) and redrew every open live page five times as
      // often; no test waits for one of its pushes (the live tests push for themselves and
      // were written to survive its drift).
      SIMULATOR_INTERVAL_SECONDS: "10",
      PUBLIC_ORIGIN: PORTAL,
    },
  },
  {
    base: CONFIGURED,
    env: {
      PORT: "4411",
      DATA_DIR: ".e2e-data-2",
      DEMO: "0",
      ACCOUNT_ORIGIN: CONFIGURED_ACCOUNT,
      API_ORIGIN: "http://api.localhost:4413",
    },
  },
];

/** Seeds the template in a process of its own (`npm run seed`). */
async function seedTemplate() {
  rmSync(DEMO_TEMPLATE, { recursive: true, force: true });
  const env = { ...process.env, DATA_DIR: join(DEMO_TEMPLATE, "data"), DEMO: "1", DEMO_SAMPLE_DAYS: "3" };
  await promisify(execFile)(process.execPath, ["scripts/seed.ts"], { env, timeout: 120_000 }).catch(
    (error) => {
      throw new Error(`seeding the browser tests' demo failed:\n${error.stderr ?? error.message}`);
    },
  );
}

/** Copies the template to a portal's data dir (DATA_DIR), replacing what was there. */
export function copyTemplate(dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(join(DEMO_TEMPLATE, "data"), dataDir, { recursive: true });
}

/**
 * Seeds the template, then starts the shared portals side by side from copies of it. As
 * Playwright's webServer started them (one after another, each seeding for itself) and the
 * template after them, 30 s passed before the first test. The teardown stops them.
 */
export default async function globalSetup() {
  for (const { base } of SHARED)
    if (await answers(base)) throw new Error(`${base} is already in use: stop whatever answers there first.`);
  forgetScans();
  await seedTemplate();
  const started: ServerProcess[] = [];
  const stopAll = () => Promise.all(started.map((s) => s.stop()));
  const results = await Promise.allSettled(
    SHARED.map(async ({ base, env }) => {
      copyTemplate(env.DATA_DIR);
      const server = await startServer(
        base,
        `portal on ${base}`,
        { ...process.env, ...env },
        { showErrors: true },
      );
      started.push(server);
    }),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}
