import type { Page } from "@playwright/test";
import { DEMO, demoToken } from "../../server/seed/demo.ts";
import { expect, test } from "./fixtures.ts";
import { hydrated, signInAs } from "./helpers.ts";

const orderPath = (id: number) => `/p/order/ORD-${id}-${demoToken(`order-${id}`)}`;
const NOT_FOUND_ORDER = "Order Not found. Try again here: Order Lookup.";
const NOT_FOUND_QUOTE = "Quote Not found. Try again here: Order Lookup.";

/** The value beside a label of a record card's list. */
const fact = (page: Page, card: string, label: string) =>
  page.locator(`#${card} dt`, { hasText: label }).locator("xpath=following-sibling::dd[1]");

async function openOrder(page: Page, id: number) {
  await page.goto(orderPath(id));
  await expect(page.locator("#order-card")).not.toHaveAttribute("aria-busy", "true");
}

test.describe("public order page", () => {
  test("shows the order card, its statuses and Pay as Guest for an order that owes money", async ({
    page,
  }) => {
    await openOrder(page, DEMO.orderId);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Thank you for ordering Environmental Monitoring products.",
    );
    await expect(fact(page, "order-card", "Order Number")).toHaveText("ORD-5003");
    await expect(fact(page, "order-card", "Order Status")).toHaveText("Partial");
    await expect(fact(page, "order-card", "Billing Status")).toHaveText("Open");
    await expect(fact(page, "order-card", "Order Placed On")).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expect(fact(page, "order-card", "Shipping Method")).toHaveText("UPS Ground");
    await expect(page.locator("#order-card .tracking-list button")).toHaveCount(2);
    const pay = page.getByRole("button", { name: "Pay as Guest" });
    await expect(pay).toHaveAttribute(
      "href",
      `/p/order/pay-as-guest/${encodeURIComponent(orderPath(5003).split("/").pop()!)}`,
    );
    await expect(page.getByText("or", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Submit Payment" })).toBeVisible();
  });

  const STATES = [
    { id: 5001, order: "Received", billing: "Open", pay: true },
    { id: 5002, order: "Shipped", billing: "Open", pay: true },
    { id: 5004, order: "Delivered", billing: "Paid", pay: false },
    { id: 5005, order: "Cancelled", billing: "Cancelled", pay: false },
    { id: 5006, order: "Received", billing: "Open", pay: false },
    { id: 5008, order: "Delivered", billing: "Refunded", pay: false },
    { id: 5009, order: "Received", billing: "Closed", pay: false },
    { id: 5010, order: "Received", billing: "Paid", pay: false },
  ];
  for (const s of STATES) {
    test(`shows order ${s.id} as ${s.order} / ${s.billing}${s.pay ? " with" : " without"} Pay as Guest`, async ({
      page,
    }) => {
      await openOrder(page, s.id);
      await expect(fact(page, "order-card", "Order Status")).toHaveText(s.order);
      await expect(fact(page, "order-card", "Billing Status")).toHaveText(s.billing);
      await expect(page.getByRole("button", { name: "Pay as Guest" })).toBeVisible({ visible: s.pay });
      // A card that takes no payment is not titled as one.
      const title = s.pay ? "Submit Payment" : "Register or sign in";
      await expect(page.locator("#account-card-title")).toHaveText(title);
    });
  }

  test("says the order is not found, with the lookup link, for a wrong validation id", async ({ page }) => {
    await page.goto(`/p/order/ORD-${DEMO.orderId}-not-the-right-token-at-all`);
    await expect(page.getByRole("alert")).toHaveText(NOT_FOUND_ORDER);
    await expect(page.getByRole("link", { name: "Order Lookup" })).toHaveAttribute(
      "href",
      "/p/order-quote/search",
    );
    await expect(page.locator("#order-card")).toBeHidden();
    // No thanks for an order that is not there; the message has the focus, shown as Pico's
    // soft ring around a notice, not the browser's thin outline around the text.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Order not found");
    await expect(page.getByText(/Thank you/)).toHaveCount(0);
    const alert = page.getByRole("alert");
    await expect(alert).toBeFocused();
    const look = await alert.evaluate((el) => {
      const css = getComputedStyle(el);
      return {
        outline: css.outlineStyle,
        ring: css.boxShadow !== "none",
        padded: parseFloat(css.paddingLeft) > 0,
      };
    });
    expect(look).toEqual({ outline: "none", ring: true, padded: true });
  });

  test("opens Shipment Details from a tracking number with the keyboard; Escape closes it and focus returns", async ({
    page,
  }) => {
    await openOrder(page, DEMO.orderId);
    const number = page.locator("#order-card .tracking-list button").first();
    await number.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Shipment Details" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("columnheader")).toHaveText(["Location", "Date", "Local Time", "Activity"]);
    await expect(dialog.locator("dt")).toHaveText([
      "Shipping Method",
      "Tracking Number",
      "Ship From",
      "Ship To",
      "Signed For By",
    ]);
    await expect(dialog.locator("dd").nth(1)).toHaveText((await number.textContent())!);
    await expect(dialog.locator("dd").nth(2)).toHaveText("Louisville, KY, US");
    await expect(dialog.locator("dd").nth(4)).toHaveText("R. MORALES");
    await expect(dialog.getByRole("row").nth(1)).toContainText("Delivered");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(number).toBeFocused();
    // The close button too.
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(number).toBeFocused();
  });

  test("opens Shipment Details in the task of the press, so an Escape right after finds it open", async ({
    page,
  }) => {
    await openOrder(page, DEMO.orderId);
    const number = page.locator("#order-card .tracking-list button").first();
    const dialog = page.getByRole("dialog", { name: "Shipment Details" });
    await number.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // Microtasks only: the dialog is open before any other task (a key press) can run.
    const openInTask = await number.evaluate(async (button: HTMLButtonElement) => {
      button.click();
      const shown = () => document.querySelector<HTMLDialogElement>("#shipment-details dialog")?.open;
      for (let i = 0; i < 200 && !shown(); i++) await Promise.resolve();
      return shown();
    });
    expect(openInTask).toBe(true);
  });

  test("takes a press back with Escape while the dialog's code loads, and a double press keeps the focus", async ({
    page,
  }) => {
    // The dialog's code arrives only when the test lets it, on each page load.
    let release = () => {};
    const hold = () => new Promise<void>((resolve) => (release = resolve));
    let loaded = hold();
    await page.route("**/openShipmentDetails.*.js", async (route) => {
      await loaded;
      await route.continue();
    });
    await openOrder(page, DEMO.orderId);
    const number = page.locator("#order-card .tracking-list button").first();
    const dialog = page.getByRole("dialog", { name: "Shipment Details" });
    // A double click: the second lands on the busy number, which takes no pointer events.
    const box = (await number.boundingBox())!;
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await expect(number).toHaveAttribute("aria-busy", "true");
    release();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(number).toBeFocused();

    loaded = hold();
    await openOrder(page, DEMO.orderId);
    await number.click();
    await expect(number).toHaveAttribute("aria-busy", "true");
    await page.keyboard.press("Escape");
    release();
    await expect(number).not.toHaveAttribute("aria-busy", "true");
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    await expect(dialog).toBeHidden();
  });

  test("says 'Shipment info currently unavailable.' when the carrier has nothing", async ({ page }) => {
    await page.route("**/shipments/tracking-details/**", (route) =>
      route.fulfill({ status: 503, body: "{}" }),
    );
    await openOrder(page, DEMO.orderId);
    await page.locator("#order-card .tracking-list button").first().click();
    const dialog = page.getByRole("dialog", { name: "Shipment Details" });
    await expect(dialog.getByText("Shipment info currently unavailable.")).toBeVisible();
  });

  test("shows the banner when the shipment list fails", async ({ page }) => {
    await page.route("**/api/v1/shipments/shipment-list/**", (route) => route.abort());
    await openOrder(page, DEMO.orderId);
    await page.locator("#order-card .tracking-list button").first().click();
    await expect(page.getByText("Unexpected Error retrieving shipment details.")).toBeVisible();
  });

  test("loads the shipment dialog's code only when a tracking number is pressed", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(r.url())));
    await openOrder(page, DEMO.orderId);
    await hydrated(page);
    expect(scripts.filter((u) => u.includes("openShipmentDetails"))).toEqual([]);
    await page.locator("#order-card .tracking-list button").first().click();
    await expect(page.getByRole("dialog", { name: "Shipment Details" })).toBeVisible();
    expect(scripts.filter((u) => u.includes("openShipmentDetails"))).toHaveLength(1);
  });

  test("lists the order's life from quote to delivery in the visitor's time zone", async ({ browser }) => {
    const context = await browser.newContext({ timezoneId: "Asia/Tokyo" });
    const page = await context.newPage();
    await page.goto(orderPath(5001));
    await expect(page.locator("#order-timeline")).toContainText("Quote QUO-1002 created");
    await page.goto(orderPath(DEMO.orderId));
    const timeline = page.locator("#order-timeline");
    await expect(timeline).toContainText("Asia/Tokyo");
    await expect(timeline).toContainText("Order ORD-5003 placed");
    await expect(timeline).toContainText("Payment of $");
    await expect(timeline).toContainText("Shipped by UPS");
    await expect(timeline).toContainText("Delivered (Boston, MA, US)");
    await context.close();
  });

  test("sends a signed-in member to the signed-in order page, and keeps another subscription's user here", async ({
    page,
  }) => {
    await signInAs(page, "owner@northwind.example.com");
    await openOrder(page, DEMO.orderId);
    await expect(page).toHaveURL(/\/p\/order\//);
    await page.context().clearCookies();
    await signInAs(page, "admin@example.com");
    await page.goto(orderPath(DEMO.orderId));
    await expect(page).toHaveURL(/\/s\/order\/details\/5003$/);
  });
});

test.describe("public quote page", () => {
  test("shows the summary card of an open quote by number, with no guest payment from a sequential number", async ({
    page,
  }) => {
    await page.goto(`/p/quote/QUO-${DEMO.openQuoteId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Thank you for requesting a quote for Environmental Monitoring products.",
    );
    await expect(fact(page, "quote-card", "Quote Number")).toHaveText("QUO-1001");
    await expect(fact(page, "quote-card", "Status")).toHaveText(/^Expires at [A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expect(fact(page, "quote-card", "Created")).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expect(page.getByRole("heading", { name: "Place your Order" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pay as Guest" })).toBeHidden();
    await expect(page.getByText("To pay as a guest, open this quote from the link")).toBeVisible();
  });

  test("offers Pay as Guest on the token link of an open quote", async ({ page }) => {
    await page.goto(`/p/quote/${DEMO.openQuoteToken}`);
    await expect(page.getByRole("button", { name: "Pay as Guest" })).toHaveAttribute(
      "href",
      `/p/quote/pay-as-guest/${DEMO.openQuoteToken}`,
    );
  });

  test("shows a closed quote as Closed and an expired one without Pay as Guest", async ({ page }) => {
    await page.goto(`/p/quote/${DEMO.closedQuoteToken}`);
    await expect(fact(page, "quote-card", "Status")).toHaveText("Closed");
    await expect(page.getByRole("button", { name: "Pay as Guest" })).toBeHidden();
    await page.goto(`/p/quote/${DEMO.expiredQuoteToken}`);
    await expect(fact(page, "quote-card", "Status")).toHaveText(/^Expires at /);
    await expect(page.locator("#quote-card")).not.toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("button", { name: "Pay as Guest" })).toBeHidden();
  });

  test("says the quote is not found for an unknown number", async ({ page }) => {
    await page.goto("/p/quote/QUO-99999");
    await expect(page.getByRole("alert")).toHaveText(NOT_FOUND_QUOTE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quote not found");
    await expect(page.getByText(/Thank you/)).toHaveCount(0);
  });
});
