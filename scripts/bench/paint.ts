import type { Browser, Page } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { chromiumPath } from "../chromiumPath.ts";

/** The slow link of the issues: 400 ms latency, 400 kbit/s each way. */
export const SLOW_LINK = { latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };

/** Chromium as the tests launch it (the same binary, CHROMIUM_PATH first; no sandbox: CI runs as root). */
export const CHROMIUM = {
  executablePath: chromiumPath(),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
};

/**
 * Gzip bytes of the JS a page had asked for when it set the performance mark `mark`: the
 * scripts requested before it (from the browser's own resource timing) and the page's inline
 * scripts. What loads afterwards (islands hydrating later) does not count.
 */
export async function jsBeforeMark(page: Page, mark: string): Promise<{ gzip: number; files: string[] }> {
  const { files, inline } = await page.evaluate((name) => {
    const at = performance.getEntriesByName(name)[0]?.startTime ?? Infinity;
    const requested = performance
      .getEntriesByType("resource")
      .filter((e) => e.startTime <= at && /\.m?js(\?|$)/.test(e.name))
      .map((e) => e.name);
    const scripts = [...document.querySelectorAll("script:not([src])")]
      .filter((s) => !/json/.test(s.getAttribute("type") ?? ""))
      .map((s) => s.textContent ?? "");
    return { files: requested, inline: scripts };
  }, mark);
  let gzip = 0;
  for (const text of inline) gzip += gzipSync(Buffer.from(text), { level: 9 }).length;
  for (const url of files) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { gzip, files };
}

/**
 * Milliseconds from navigation until `ready` holds in the page, on the slow link with an
 * empty cache: what a visitor on a poor connection waits.
 */
export async function slowLinkMs(browser: Browser, url: string, ready: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...SLOW_LINK });
  await page.goto(url, { waitUntil: "commit" });
  await ready(page);
  const ms = await page.evaluate(() => performance.now());
  await context.close();
  return ms;
}

/** The order or quote card shows its record (the page script's mark). */
export const cardPainted = (page: Page) =>
  page
    .waitForFunction(() => performance.getEntriesByName("portal:painted").length > 0, undefined, {
      timeout: 60_000,
    })
    .then(() => undefined);

/** Every island hydrated and no button still waiting ("Loading..."): the form can be used. */
export const formUsable = (page: Page) =>
  page
    .waitForFunction(
      () =>
        document.querySelectorAll("astro-island[ssr]").length === 0 &&
        ![...document.querySelectorAll("button")].some((b) => b.textContent === "Loading..."),
      undefined,
      { timeout: 60_000, polling: 50 },
    )
    .then(() => undefined);
