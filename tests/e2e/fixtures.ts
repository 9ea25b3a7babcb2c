import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { describe, failing, markScanned, pathOf, scan, scannedInRun, type Finding } from "./axe.ts";

export { expect };

// Every page a browser test opens is scanned with axe once it is idle, each distinct address
// once per test, plus the page as the test leaves it; a page any worker of the run scanned
// clean in the same state, at the same size and pointer, is not scanned again. Serious and critical violations fail
// the test; moderate and minor ones are printed once per worker.

/** How long a scan waits for a page to settle before it scans the page as it is. */
const SETTLE_MS = 5_000;
/** The same wait when the test has ended and the last page is scanned. */
const FINAL_SETTLE_MS = 2_000;
/** Only the portal's own pages (ports 4410-4414), not the test identity provider's. */
const PORTAL_PAGE = /^https?:\/\/[^/]+:441[0-4]\//;
/** Errors that mean the page moved on while it was read (the new page is scanned instead). */
const LEFT = /Execution context was destroyed|has been closed|frame was detached/;
const printed = new Set<string>();
const watches = new WeakMap<Page, AxeWatch>();

/** Hydrated, nothing busy, no "Loading..." button: what a person would read and use. */
const isIdle = () =>
  document.readyState === "complete" &&
  !document.querySelector("astro-island[ssr], [aria-busy='true']") &&
  ![...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Loading...") &&
  // A colour mid-transition (focus given back to a link, say) is no colour the page shows.
  !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === "running");

/**
 * A page's state as axe sees it, leaving out what data changes (a page scanned before is
 * scanned again only when this changed): each element's tag, the values of the attributes
 * that name, relate or hide it (id, class, role, type, for, tabindex, lang, the ARIA states and
 * references), whether its names (aria-label, alt, title, placeholder) are empty, the names of
 * its other attributes and whether it holds text of its own; nothing inside an SVG (a chart's
 * lines). A reading, a time or a moved chart line is the same state; a dialog, an error,
 * another colour class, an opened menu or a name gone empty is a new one. The body's length
 * stood in before, and rescans of a page whose values alone had moved were two fifths of all
 * scans. Null for what is not an HTML page (JSON an error answered with, shown by the browser).
 */
const fingerprint = () => {
  if (document.contentType !== "text/html" || !document.body) return null;
  const VALUES =
    /^(id|class|role|type|for|tabindex|lang|dir|hidden|disabled|inert|open|aria-(?!label$|valuenow$|valuetext$|description$).+)$/;
  const NAMES = /^(aria-label|alt|title|placeholder|aria-valuetext|aria-description)$/;
  let hash = 0;
  let count = 0;
  const add = (text: string) => {
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (el.parentElement?.closest("svg")) continue;
    count++;
    add(`<${el.tagName}`);
    for (const a of el.attributes) {
      if (VALUES.test(a.name)) add(` ${a.name}=${a.value}`);
      else if (NAMES.test(a.name)) add(` ${a.name}${a.value.trim() ? "" : "=''"}`);
      else add(` ${a.name}`);
    }
    if ([...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())) add(" text");
  }
  return `${count}:${(hash >>> 0).toString(36)}`;
};

type When = "navigated" | "final" | "checkpoint";

class AxeWatch {
  readonly findings: Finding[] = [];
  readonly problems: string[] = [];
  private readonly scanned = new Map<string, string>();
  private moves = 0;
  private work: Promise<void> = Promise.resolve();
  private hurryFrom: number | undefined;

  private readonly page: Page;
  /** The context's pointer ("touch", "mobile touch" or "mouse"): part of the page's key. */
  private readonly touch: string;

  constructor(page: Page, touch: string) {
    this.page = page;
    this.touch = touch;
    watches.set(page, this);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      this.moves++;
      this.work = this.work.then(async () => void (await this.scanWhenIdle("navigated", SETTLE_MS)));
    });
  }

  /** Waits for the pending scans (cut short), then scans the page as the test left it. */
  async finish(scanLast: boolean) {
    this.hurryFrom = Date.now();
    await this.work;
    if (scanLast) await this.scanWhenIdle("final", FINAL_SETTLE_MS);
  }

  /** Scans now (after a short settle), whatever was scanned before; the caller judges. */
  async checkpoint(): Promise<Finding[]> {
    await this.work;
    return this.scanWhenIdle("checkpoint", FINAL_SETTLE_MS);
  }

  private async scanWhenIdle(when: When, settleMs: number): Promise<Finding[]> {
    const moves = this.moves;
    if (!(await this.settle(moves, settleMs))) return [];
    const url = this.page.url();
    if (!PORTAL_PAGE.test(url)) return [];
    const path = pathOf(url);
    const print = await this.page.evaluate(fingerprint).catch(() => null);
    if (print === null) return [];
    const seen = this.scanned.get(path);
    if ((when === "navigated" && seen !== undefined) || (when === "final" && seen === print)) return [];
    // The same page at another size or pointer is another page to axe (media queries).
    const size = this.page.viewportSize();
    const origin = new URL(url).origin;
    const key = `${origin}${path} ${size?.width}x${size?.height} ${this.touch} ${print}`;
    if (when !== "checkpoint" && scannedInRun(key)) {
      this.scanned.set(path, print);
      return [];
    }
    try {
      const found = await scan(this.page);
      // A page that navigated mid-scan may have been read half old, half new: its next scan counts.
      if (moves !== this.moves) return [];
      this.scanned.set(path, print);
      // A checkpoint's findings are the caller's to judge (a test may break a page on purpose
      // and expect them), so only the scans this fixture judges itself spare later tests one.
      if (when !== "checkpoint") {
        // A page with a failing finding is not marked: every test that opens it fails (a
        // retry too), not just the first. Nor is one that changed while it was scanned.
        const after = await this.page.evaluate(fingerprint).catch(() => null);
        if (!found.some(failing) && after === print) markScanned(key);
        this.findings.push(...found);
      }
      return found;
    } catch (error) {
      // A page that navigated or closed mid-scan is scanned again at its next address.
      if (this.page.isClosed() || moves !== this.moves || LEFT.test(String(error))) return [];
      this.problems.push(`axe could not scan ${path}: ${(error as Error).message.split("\n")[0]}`);
      return [];
    }
  }

  /** True once the page has been idle twice in a row, or the wait ran out; false if it left. */
  private async settle(moves: number, settleMs: number): Promise<boolean> {
    const deadline = Date.now() + settleMs;
    let calm = 0;
    while (calm < 2) {
      if (this.page.isClosed() || moves !== this.moves) return false;
      const now = Date.now();
      if (now > deadline || (this.hurryFrom && now > this.hurryFrom + FINAL_SETTLE_MS)) return true;
      const idle = await this.page.evaluate(isIdle).catch(() => false);
      calm = idle ? calm + 1 : 0;
      if (calm < 2) await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  }
}

/** Prints moderate and minor findings, each rule on each page once per worker. */
function printMild(findings: Finding[]) {
  for (const f of findings.filter((finding) => !failing(finding))) {
    const key = `${f.id} ${f.path}`;
    if (printed.has(key)) continue;
    printed.add(key);
    console.log(`axe ${describe(f)}`);
  }
}

/** Fails on serious and critical findings (unless the test failed already); prints the rest. */
function report(all: AxeWatch[], info: TestInfo, passedSoFar: boolean) {
  const findings = all.flatMap((w) => w.findings);
  printMild(findings);
  const problems = [...all.flatMap((w) => w.problems), ...findings.filter(failing).map(describe)];
  if (problems.length === 0) return;
  if (!passedSoFar) return void console.log(problems.map((p) => `axe ${p}`).join("\n"));
  info.annotations.push({ type: "axe", description: problems.join("\n") });
  expect(problems, "serious or critical accessibility violations (axe)").toEqual([]);
}

export const test = base.extend({
  page: async ({ page, hasTouch, isMobile }, use, testInfo) => {
    const touch = `${isMobile ? "mobile " : ""}${hasTouch ? "touch" : "mouse"}`;
    const all = [new AxeWatch(page, touch)];
    // Tabs the page opens (a link with target="_blank") are pages the test opened too.
    page.context().on("page", (popup) => void all.push(new AxeWatch(popup, touch)));
    await use(page);
    const passedSoFar = testInfo.status === "passed";
    await Promise.all(all.map((w) => w.finish(passedSoFar)));
    report(all, testInfo, passedSoFar);
  },
});

/**
 * Scans the page now and fails on serious or critical findings: for a state the test opens
 * and closes again (a dialog), which the scans after navigation and at the end would miss.
 */
export async function expectAccessible(page: Page) {
  const watch = watches.get(page);
  if (!watch) throw new Error("expectAccessible needs the page of the test fixture");
  const found = await watch.checkpoint();
  printMild(found);
  expect(found.filter(failing).map(describe), "accessibility violations (axe)").toEqual([]);
}
