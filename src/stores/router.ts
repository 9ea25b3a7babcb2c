import { createRouter } from "@nanostores/router";

/** The signed-in /s app's routes; the router is a store. */
export const $router = createRouter({
  home: "/s",
  settings: "/s/settings",
  security: "/s/security",
  devices: "/s/devices",
  orders: "/s/orders/list",
  quotes: "/s/orders/quotes/list",
  orderDetails: "/s/order/details/:id",
  quoteDetails: "/s/quotes/details/:number",
});
