// Apart from appPaths.ts: that table rides along on every public page that links into the
// app (the sign-in card's page among them, within its byte budget); this one only the app's menu needs.
import type { AppRoute } from "./appPaths.ts";

/**
 * The menu entry each sub-page lives under: the menu marks it as the current section, so a
 * person on a device, an order or the audit trail (whose own entry a phone's menu has no room
 * for) still sees where they are.
 */
export const APP_SECTIONS: Partial<Record<AppRoute, AppRoute>> = {
  account: "home",
  deviceDetails: "devices",
  deviceMap: "devices",
  explore: "devices",
  link: "devices",
  orderDetails: "orders",
  quoteDetails: "quotes",
  reportNew: "reports",
  reportEdit: "reports",
  audit: "security",
};
