import { publicOrderRef } from "./order.ts";
import { quoteNumber } from "./quote.ts";

/**
 * The portal's public addresses (spec section 1, "Other addresses referenced"), written
 * once for pages, islands and stores. Signed-in addresses are APP_ROUTES (appPaths.ts, the
 * router's table); the server's copy of the dynamic shells is server/static/shells.ts.
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
