import { existsSync } from "node:fs";

/** Debian's headless-only build: what the browser tests run in (lighter than the full browser). */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
/** Debian's full chromium: used when the headless shell is not installed. */
export const FULL_CHROMIUM = "/usr/bin/chromium";

/** The browser the tests launch: CHROMIUM_PATH if set, else the headless shell, else full chromium. */
export function chromiumPath(): string {
  const chosen = process.env["CHROMIUM_PATH"];
  if (chosen) return chosen;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
