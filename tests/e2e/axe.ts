import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// The axe-core that @axe-core/playwright itself runs, sent to each document once (the
// builder would send its 560 KB twice per scan).
const AXE_SOURCE: string = createRequire(import.meta.resolve("@axe-core/playwright"))("axe-core").source;

// WCAG 2.0 and 2.1, A and AA; best practices too, so the moderate findings the issue names
// (a page without a top-level heading, without a main landmark) are seen.
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const FAILING = new Set(["serious", "critical"]);

/** One rule an element breaks on one page. */
export interface Finding {
  path: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Scans the page as it is now. Legacy mode runs axe in the page itself (no blank helper tab
 * opened in the test's context); a document that has axe already is not sent it again.
 */
export async function scan(page: Page): Promise<Finding[]> {
  const path = pathOf(page.url());
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  // Only the violations are read: axe then describes one node of each passing rule instead of
  // every node (a selector and an HTML snippet each), which halved a scan's time.
  const builder = new AxeBuilder({ page, axeSource: ";" })
    .options({ resultTypes: ["violations"] })
    .withTags(TAGS)
    .setLegacyMode();
  const { violations } = await builder.analyze();
  return violations.map((v) => ({
    path,
    id: v.id,
    impact: v.impact ?? "unknown",
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
}

/** Serious and critical findings fail the test; the others are only printed. */
export const failing = (f: Finding) => FAILING.has(f.impact);

export const describe = (f: Finding) =>
  `${f.impact} ${f.id} on ${f.path}: ${f.help} (${f.targets.slice(0, 5).join(", ")}${f.targets.length > 5 ? ", ..." : ""})`;

/** A page's address without its origin and fragment: what a finding is about. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/**
 * Pages some worker of this run scanned without a failing finding, one file per address and
 * state: the same page in the same state is not scanned again in a later test (its findings
 * were judged in the first). Both workers used to scan each such page, a fifth of the browser
 * tests' time going to axe.
 */
const SCANNED = join(process.cwd(), "test-results", "axe-scanned");
const scannedFile = (key: string) => join(SCANNED, createHash("sha1").update(key).digest("hex"));

export const scannedInRun = (key: string) => existsSync(scannedFile(key));

export function markScanned(key: string) {
  mkdirSync(SCANNED, { recursive: true });
  writeFileSync(scannedFile(key), key);
}

/** A new run scans every page again (globalSetup). */
export const forgetScans = () => rmSync(SCANNED, { recursive: true, force: true });
