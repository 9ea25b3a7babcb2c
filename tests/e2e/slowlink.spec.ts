import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { signInWithKeyboard } from "./helpers.ts";

// The link of issue 6 item 11: 400 ms latency, 400 kbit/s (50,000 bytes/s) each way.
const SLOW_LINK = { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };
const ORDER = `/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`;
const QUOTE = `/p/quote/QUO-${DEMO.openQuoteId}`;
const shot = (name: string) => `test-results/screens/slowlink-${name}.png`;

test.use({ viewport: { width: 390, height: 844 } });
// The slow link makes every page take seconds; the islands' scripts are held on top of that.
test.setTimeout(90_000);

interface SlowPage {
  /** Lets the held island scripts through: the island hydrates soon after. */
  release: () => void;
  /** Every document request of the tab, "METHOD url", the first page load included. */
  documents: string[];
}

/**
 * Puts the tab on the slow link and holds the islands' scripts until the test releases
 * them, so the server-rendered card is on screen while nothing can hydrate it: the gap a
 * slow connection leaves (1.3 s to 3.35 s in the issue), made as wide as the test needs.
 */
async function slowLink(page: Page): Promise<SlowPage> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/_astro/*.js", async (route) => {
    await held;
    await route.continue();
  });
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents.push(`${r.method()} ${r.url()}`);
  });
  return { release, documents };
}

/**
 * Types an address into the server-rendered card, presses Enter in the field and clicks the
 * submit button (forced: a person's click lands whether or not the button is enabled), all
 * before the island hydrates. The button reads its own label and is enabled meanwhile (not a
 * disabled "Loading...": the newcomer's review): the page's early script holds the press.
 */
async function actBeforeHydration(page: Page, form: Locator, address: string, name: string, label: string) {
  const email = form.getByLabel("Email");
  await expect(email).toBeVisible();
  await expect(page.locator("astro-island[ssr]")).not.toHaveCount(0);
  const button = form.getByRole("button", { name: label });
  await expect(button).toBeEnabled();
  await email.fill(address);
  await page.screenshot({ path: shot(`${name}-before`) });
  await email.press("Enter");
  await button.click({ force: true });
  // A submission starts at once; on this link its request is seen well within a second.
  await page.waitForTimeout(1_000);
  await expect(page.locator("astro-island[ssr]")).not.toHaveCount(0);
}

/** Nothing left the page but its own load, and the address bar never gained the address. */
function expectNoSubmission(slow: SlowPage, path: string) {
  expect(slow.documents).toHaveLength(1);
  expect(slow.documents[0]).toMatch(/^GET /);
  expect(slow.documents.join("\n")).not.toMatch(/emailAddress|%40|@/);
  expect(new URL(slow.documents[0]!.slice(4)).pathname).toBe(path);
}

/**
 * The early Enter goes through once the island hydrates (React itself crosses the slow link
 * after the release, ~65 KB at 50 KB/s, longer on a busy machine: the wait allows for it),
 * exactly once, and the address never reaches the address bar.
 */
async function releasedAndSent(page: Page, slow: SlowPage, call: RegExp, shown: Locator, name: string) {
  const calls: string[] = [];
  page.on("request", (r) => void (call.test(r.url()) && calls.push(r.method())));
  slow.release();
  await expect(shown).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: shot(`${name}-after`) });
  expect(calls).toEqual(["POST"]);
  expect(page.url()).not.toMatch(/emailAddress|%40/);
}

test("sends the sign-in card's Enter pressed before hydration once it hydrates on a slow link", async ({
  page,
}) => {
  const slow = await slowLink(page);
  await page.goto("/gateway", { waitUntil: "commit" });
  const card = page.getByRole("form", { name: "Account Login" });
  await actBeforeHydration(page, card, "admin@example.com", "gateway", "Next");
  expectNoSubmission(slow, "/gateway");
  await releasedAndSent(page, slow, /\/gateway\/check-email$/, card.getByLabel("Password"), "gateway");
  await expect(card.getByText("admin@example.com")).toBeVisible();
});

test("sends the order page's register card's early Enter once it hydrates", async ({ page }) => {
  const slow = await slowLink(page);
  await page.goto(ORDER, { waitUntil: "commit" });
  const card = page.getByRole("form", { name: "Submit Payment" });
  await actBeforeHydration(page, card, "slow.order@example.com", "order", "Register");
  expectNoSubmission(slow, ORDER);
  const sent = page.getByRole("heading", { name: "Registration Email Sent" });
  await releasedAndSent(page, slow, /\/user\/new\/sign-up$/, sent, "order");
});

test("sends the quote page's register card's early Enter once it hydrates", async ({ page }) => {
  const slow = await slowLink(page);
  await page.goto(QUOTE, { waitUntil: "commit" });
  const card = page.getByRole("form", { name: "Place your Order" });
  await actBeforeHydration(page, card, "slow.quote@example.com", "quote", "Register");
  expectNoSubmission(slow, QUOTE);
  const sent = page.getByRole("heading", { name: "Registration Email Sent" });
  await releasedAndSent(page, slow, /\/user\/new\/sign-up$/, sent, "quote");
});

test("sends the password-reset request's early Enter once it hydrates", async ({ page }) => {
  const slow = await slowLink(page);
  await page.goto("/gateway/request-password-reset", { waitUntil: "commit" });
  const card = page.getByRole("form", { name: "Reset your password" });
  await actBeforeHydration(page, card, "viewer@example.com", "reset", "Send reset link");
  expectNoSubmission(slow, "/gateway/request-password-reset");
  const sent = page.getByText(/If an account uses that address/);
  await releasedAndSent(page, slow, /\/gateway\/request-password-reset$/, sent, "reset");
});

test("sends the address in a POST body, never the URL, when something submits the card early", async ({
  page,
}) => {
  // A password manager's auto-submit calls form.submit(), which a disabled button cannot stop.
  const slow = await slowLink(page);
  await page.goto("/gateway", { waitUntil: "commit" });
  const email = page.getByRole("form", { name: "Account Login" }).getByLabel("Email");
  await email.fill("admin@example.com");
  // The page's own load is done: the next document request is the submission.
  const sent = page.waitForRequest((r) => r.isNavigationRequest());
  await page.evaluate(() => document.querySelector("form")!.submit());
  const request = await sent;
  expect(request.method()).toBe("POST");
  expect(request.url()).toMatch(/\/gateway$/);
  expect(request.postData()).toBe("emailAddress=admin%40example.com");
  // The server sends the post back to its page (303, unread); that page needs its scripts.
  slow.release();
  await page.waitForLoadState("domcontentloaded");
  expect(page.url()).not.toMatch(/emailAddress|%40/);
  await expect(page.getByRole("form", { name: "Account Login" })).toBeVisible();
});

// Pages whose islands render on the server, and the lookup and guest-payment pages that
// will hold forms: none may serve a form that a click or Enter could send by GET.
const SERVER_RENDERED = [
  "/gateway",
  "/gateway/request-password-reset",
  "/gateway/reset-password?token=x",
  "/user/register",
  "/user/validate?token=x",
  "/user/welcome",
  "/terms/acknowledge",
  ORDER,
  QUOTE,
  "/p/order-quote/search",
  "/p/order/pay-as-guest/abc",
  "/p/quote/pay-as-guest/abc",
];

const WITH_CARD = ["/gateway", "/gateway/request-password-reset", "/user/register", ORDER, QUOTE];

test("serves every form as a POST whose submit buttons wait for the script", async ({ request }) => {
  const withForm: string[] = [];
  for (const path of SERVER_RENDERED) {
    const html = await (await request.get(path)).text();
    if (/<form\b/i.test(html)) withForm.push(path);
    for (const [, open, body] of html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/gi)) {
      expect(open, `${path}: ${open}`).toMatch(/\bmethod="post"/i);
      // Inside a form a button without type="button" submits it.
      for (const [button, text] of body!.matchAll(
        /<button\b(?![^>]*type="button")[^>]*>([\s\S]*?)<\/button>/gi,
      )) {
        // An early button (the sign-in card's Next) is pressable: EarlySubmit.astro holds it.
        if (/\bdata-early=/.test(button!)) {
          expect(html, `${path}: the early script`).toContain("button[data-early]");
          continue;
        }
        expect(button, `${path}: ${button}`).toMatch(/\bdisabled=""/);
        expect(text, path).toBe("Loading...");
      }
    }
  }
  expect(withForm).toEqual(expect.arrayContaining(WITH_CARD));
});

// The signed-in app on the same link (issue 11 follow-up): the page's chunk, the session check
// and the record (with the countries of a quote's addresses) start together once the app's
// script runs, instead of one after another (chunk after session, record after chunk,
// countries after record: 7-8 s in the newcomer's report).

interface Loaded {
  name: string;
  start: number;
  end: number;
}

/** Every resource the page loaded, start and end in ms from the navigation. */
function resources(page: Page): Promise<Loaded[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => ({ name: e.name, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
  );
}

function loaded(list: Loaded[], pattern: RegExp): Loaded {
  const found = list.filter((r) => pattern.test(new URL(r.name).pathname));
  expect(found.length, `${pattern}: ${list.map((r) => r.name).join("\n")}`).toBeGreaterThan(0);
  return found[0]!;
}

/** Signs in on a fast link, then puts the tab on the slow one and opens a signed-in page. */
async function openSignedInSlowly(page: Page, path: string, heading: string) {
  await signInWithKeyboard(page, "admin@example.com");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
  const started = Date.now();
  await page.goto(path, { waitUntil: "commit" });
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible({ timeout: 30_000 });
  const ms = Date.now() - started;
  await page.screenshot({ path: shot(`signed-in-${heading.split(" ")[0]!.toLowerCase()}`) });
  // Printed, not asserted: speed targets live in `npm run bench`.
  console.log(`slow link: ${path} shows "${heading}" after ${ms} ms`);
  const list = await resources(page);
  if (process.env["SLOWLINK_TRACE"])
    for (const r of list)
      console.log(`${r.start.toFixed(0)}-${r.end.toFixed(0)} ${new URL(r.name).pathname}`);
  return list;
}

test("keeps the shared report from jumping on a phone as its name and chart arrive", async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.shifts.push((e as unknown as { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
  await page.goto(`/public/report/${DEMO.reportHash}`, { waitUntil: "commit" });
  await expect(page.locator("#report-chart .report-svg svg, #report-chart canvas").first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Report");
  await page.waitForTimeout(500);
  // The name replaced "Report" with the chart (two lines on this phone): a jump scored 0.46.
  const shift = await page.evaluate(() =>
    (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
  );
  expect(shift).toBeLessThan(0.1);
});

test("starts the signed-in order page's chunk and record alongside the session check", async ({ page }) => {
  const list = await openSignedInSlowly(
    page,
    `/s/order/details/${DEMO.orderId}`,
    `Order ORD-${DEMO.orderId}`,
  );
  const session = loaded(list, /^\/api\/v1\/session$/);
  // Each starts before the session's answer is in: none waits for another's round trip.
  expect(loaded(list, /\/_astro\/OrderDetails\.[^/]+\.js$/).start).toBeLessThan(session.end);
  expect(loaded(list, new RegExp(`^/api/v1/orders/${DEMO.orderId}$`)).start).toBeLessThan(session.end);
  expect(
    loaded(list, new RegExp(`^/api/v1/shipments/shipment-list/order/${DEMO.orderId}$`)).start,
  ).toBeLessThan(session.end);
});

test("starts the signed-in quote page's chunk, the quote and countries alongside the session check", async ({
  page,
}) => {
  const list = await openSignedInSlowly(
    page,
    `/s/quotes/details/QUO-${DEMO.openQuoteId}`,
    `Quote QUO-${DEMO.openQuoteId}`,
  );
  const session = loaded(list, /^\/api\/v1\/session$/);
  const quote = loaded(list, new RegExp(`^/api/v1/quotes/${DEMO.openQuoteId}$`));
  expect(loaded(list, /\/_astro\/QuoteDetails\.[^/]+\.js$/).start).toBeLessThan(session.end);
  expect(quote.start).toBeLessThan(session.end);
  // Asked once: the page does not fetch again what the app already asked for.
  expect(list.filter((r) => new URL(r.name).pathname === `/api/v1/quotes/${DEMO.openQuoteId}`)).toHaveLength(
    1,
  );
  // The address cards name countries from the list: it comes with the quote, not after it.
  expect(loaded(list, /^\/order\/country-list$/).start).toBeLessThan(quote.end);
});
