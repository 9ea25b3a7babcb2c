import { ORDER_PREFIX } from "../../src/domain/order.ts";
import { QUOTE_PREFIX } from "../../src/domain/quote.ts";
import { orderIdOf, quoteIdOf } from "../../src/stores/accountOrders.ts";
import type { $router, RouteName } from "../../src/stores/router.ts";

/** What each signed-in tab says before " · My Account" (the place, not the app). */
const NAMES: Record<RouteName, string> = {
  home: "Home",
  account: "Home",
  settings: "Settings",
  security: "Security",
  devices: "Devices",
  deviceDetails: "Device",
  orders: "Orders",
  quotes: "Quotes",
  orderDetails: "Order",
  quoteDetails: "Quote",
  tags: "Tags",
  explore: "Sensor Data",
  link: "Link",
  deviceMap: "Device Map",
  reports: "Reports",
  reportNew: "New Report",
  reportEdit: "Edit Report",
  alerts: "Alerts",
  audit: "Audit Trail",
};

/** The record a detail address names, as its number reads ("ORD-5003"), when it names one. */
function recordNumber(page: NonNullable<ReturnType<typeof $router.get>>): string | null {
  if (page.route === "orderDetails") {
    const id = orderIdOf(page.params.id);
    return id === null ? null : `${ORDER_PREFIX}${id}`;
  }
  if (page.route === "quoteDetails") {
    const id = quoteIdOf(page.params.number);
    return id === null ? null : `${QUOTE_PREFIX}${id}`;
  }
  return null;
}

/**
 * The tab's title of a signed-in page, so tabs, history and bookmarks tell the pages apart:
 * "Order ORD-5003 · My Account", "Quotes · My Account"; an address that names no route
 * "Page Not Found · My Account".
 */
export function appTitle(page: ReturnType<typeof $router.get>): string {
  if (!page) return "Page Not Found · My Account";
  const number = recordNumber(page);
  return `${NAMES[page.route]}${number ? ` ${number}` : ""} · My Account`;
}
