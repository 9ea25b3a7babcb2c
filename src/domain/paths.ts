import { publicOrderRef } from "./order.ts";
import { quoteNumber } from "./quote.ts";

/**
 * The portal's public addresses (spec section 1, "Other addresses referenced"), written
 * once for pages, islands and stores. Signed-in /s addresses come from the router
 * (src/stores/router.ts); the server's copy of the dynamic shells is server/static/shells.ts.
 */
export const PATHS = {
  home: "/",
  welcome: "/user/welcome",
  gateway: "/gateway",
  resetRequest: "/gateway/request-password-reset",
  resetPassword: "/gateway/reset-password",
  register: "/user/register",
  validate: "/user/validate",
  terms: "/terms",
  termsAcknowledge: "/terms/acknowledge",
  orderSearch: "/p/order-quote/search",
  products: "/products",
  support: "/support",
} as const;

const part = (text: string) => encodeURIComponent(text);

/**
 * The signed-in app's addresses, once: the router's table (src/stores/router.ts builds its
 * store from it) and every link to an app page, in the browser and from the server.
 */
export const APP_ROUTES = {
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

/** The shareable public order page, /p/order/ORD-{id}-{validationId}. */
export const publicOrderPath = (id: number, validationId: string) =>
  `/p/order/${part(publicOrderRef(id, validationId))}`;
/** The shareable public quote page, /p/quote/QUO-{id}. */
export const publicQuotePath = (id: number) => `/p/quote/${quoteNumber(id)}`;
/** Guest payment of an order or a quote. */
export const payAsGuestPath = (kind: "order" | "quote", id: string) => `/p/${kind}/pay-as-guest/${part(id)}`;
/** The public device page; device types not beginning with RA use the /public form. */
export const publicDevicePath = (hash: string, ra = true) => `/${ra ? "p" : "public"}/device/${part(hash)}`;
/** A shared report. */
export const publicReportPath = (hash: string) => `/public/report/${part(hash)}`;
/** Federated sign-in through the organisation's identity provider (on the account host). */
export const samlLoginPath = (configName: string) => `/auth/saml/login/${part(configName)}`;

/** A page that continues to `next` afterwards (sign-in, terms acceptance). */
export const withNext = (path: string, next: string) => `${path}?next=${part(next)}`;
