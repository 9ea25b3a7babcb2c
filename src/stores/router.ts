import { createRouter, type ConfigFromRouter } from "@nanostores/router";
import { PATHS } from "../domain/paths.ts";

/**
 * The signed-in app's routes; the router is a store. The home page (/user/welcome) is a
 * route of the same app, so the nav, the sign-in guard and sign-out exist once.
 * `links: false`: in-app links load their page. The router's own link handling would also
 * catch links to addresses outside these routes (the header's Products, /gateway) and show
 * no page for them.
 */
export const $router = createRouter(
  {
    home: PATHS.welcome,
    account: "/s",
    settings: "/s/settings",
    security: "/s/security",
    devices: "/s/devices",
    deviceDetails: "/s/devices/:id",
    orders: "/s/orders/list",
    quotes: "/s/orders/quotes/list",
    orderDetails: "/s/order/details/:id",
    quoteDetails: "/s/quotes/details/:number",
    tags: "/s/guidance/tags",
    explore: "/s/sensor-data/explore/:channelKey",
    link: "/links/:linkId",
    deviceMap: "/devices/device-map",
    reports: "/s/reports",
    reportNew: "/s/reports/new",
    reportEdit: "/s/reports/:id",
  },
  { links: false },
);

export type RouteName = keyof ConfigFromRouter<typeof $router>;
