import type { BrowserContext, Page } from "@playwright/test";
import { expect } from "./fixtures.ts";

export const PASSWORD = "demo-password-1";

/**
 * How soon a push must show on an open page: the spec's 2 s on a quiet machine. CI's machine
 * runs two portals, two browsers and a simulator on two shared cores, where a push has been
 * seen to take longer while nothing was lost; there the wait is the expect timeout, and the
 * push still has to arrive by itself (no reload, no new socket).
 */
export const LIVE_MS = process.env["CI"] ? 10_000 : 2_000;

/**
 * Signs in through the card with the keyboard only: email, Enter, password, Enter; then
 * waits to leave the sign-in page unless a one-time code is expected.
 */
export async function signInWithKeyboard(
  page: Page,
  email: string,
  password = PASSWORD,
  codeExpected = false,
) {
  await page.goto("/gateway");
  await hydrated(page);
  const card = page.getByRole("form", { name: "Account Login" });
  await card.getByLabel("Email").fill(email);
  await page.keyboard.press("Enter");
  await card.getByLabel("Password").fill(password);
  await page.keyboard.press("Enter");
  if (!codeExpected) await page.waitForURL((url) => !url.pathname.startsWith("/gateway"));
}

/** Session cookies this worker has signed in, by email (see signInAs). */
const kept = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();

/**
 * Signs in without the sign-in card, for tests about what comes after it (the card's own
 * tests use signInWithKeyboard). The session is signed in once per worker and person through
 * the password step's own call and reused while it lasts: the whole suite runs from one
 * address, and signing in through the card in every test would spend the portal's per-client
 * limits (email checks 60 per 10 minutes, sign-ins 100 per 15) on a fast machine.
 */
export async function signInAs(page: Page, email: string, password = PASSWORD) {
  const context = page.context();
  const cookies = kept.get(email);
  if (cookies) {
    await context.addCookies(cookies);
    if ((await page.request.get("/api/v1/session")).status() !== 401) return;
  }
  const res = await page.request.post("/gateway/submit", { form: { emailAddress: email, password } });
  expect(res.status(), `signing in ${email}`).toBe(200);
  kept.set(email, await context.cookies());
}
/** Opens the newest mail to the address in the demo mailbox and returns its link. */
export async function linkFromMailbox(page: Page, to: string): Promise<string> {
  await page.goto("/dev/mailbox");
  const mail = page.locator("article", { hasText: `To ${to}` }).first();
  await expect(mail).toBeVisible();
  return (await mail.getByRole("link").first().getAttribute("href"))!;
}

/**
 * Waits until every island on the page has hydrated (Astro drops the ssr attribute) and no
 * submit button still reads "Loading..." (forms keep them disabled until they can submit).
 */
export async function hydrated(page: Page) {
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Loading..." })).toHaveCount(0);
}

/** The demo devices' ids by name, as the signed-in caller's device list has them. */
export async function deviceIds(page: Page): Promise<Record<string, number>> {
  const res = await page.request.get("/api/v1/devices");
  const body = (await res.json()) as { data: { deviceList: { id: number; name: string }[] } };
  return Object.fromEntries(body.data.deviceList.map((d) => [d.name, d.id]));
}
