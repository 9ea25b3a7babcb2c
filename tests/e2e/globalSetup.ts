import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";

/**
 * The seeded demo data dir (no sample history) that every portal a spec starts for itself
 * copies (tests/e2e/ownPortal.ts): seeding took each of them 8–20 s on this machine, a copy
 * under one.
 */
export const OWN_TEMPLATE = join(process.cwd(), ".e2e-data-own-template");

export default function globalSetup() {
  rmSync(OWN_TEMPLATE, { recursive: true, force: true });
  const env = { ...process.env, DATA_DIR: join(OWN_TEMPLATE, "data"), DEMO: "1", DEMO_SAMPLE_DAYS: "0" };
  execFileSync(process.execPath, ["scripts/seed.ts"], { env, stdio: ["ignore", "ignore", "inherit"] });
}
