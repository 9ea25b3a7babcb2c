// The signed-in app's addresses. The explore page's own is in explorePath.ts, so the public
// device page's small painting script links to it without this table.
import { EXPLORE_ROUTE } from "./explorePath.ts";

const part = (text: string) => encodeURIComponent(text);

/**
 * The signed-in app's addresses, once: the router's table (src/stores/router.ts builds its
 * store from it) and every link to an app page, in the browser and from the server.
 */
export const APP_ROUTES = {
  home: "/user/welcome",
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
  explore: EXPLORE_ROUTE,
  link: "/links/:linkId",
  deviceMap: "/devices/device-map",
  reports: "/s/reports",
  reportNew: "/s/reports/new",
  reportEdit: "/s/reports/:id",
  alerts: "/s/alerts",
  audit: "/s/audit",
} as const;
export type AppRoute = keyof typeof APP_ROUTES;

/** The parameters an app address names, e.g. "id" of "/s/devices/:id". */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * One app address with its parameters filled in, each encoded as a path part (a channel
 * key's colons stay: they are valid in a path and the explore page reads them back).
 */
export function appPath<R extends AppRoute>(
  route: R,
  ...[params]: ParamsOf<(typeof APP_ROUTES)[R]> extends never
    ? []
    : [Record<ParamsOf<(typeof APP_ROUTES)[R]>, string | number>]
): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return APP_ROUTES[route].replace(/:(\w+)/g, (_, name: string) =>
    part(String(values[name])).replace(/%3A/gi, ":"),
  );
}
