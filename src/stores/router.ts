import { createRouter, type ConfigFromRouter } from "@nanostores/router";
import { APP_ROUTES } from "../domain/appPaths.ts";
import { loadAccountOrder, loadAccountQuote } from "./accountOrders.ts";
import { loadCountries } from "./countries.ts";

/**
 * The signed-in app's routes; the router is a store. The home page (/user/welcome) is a
 * route of the same app, so the nav, the sign-in guard and sign-out exist once.
 * `links: false`: in-app links load their page. The router's own link handling would also
 * catch links to addresses outside these routes (the header's Products, /gateway) and show
 * no page for them.
 */
export const $router = createRouter(APP_ROUTES, { links: false });

export type RouteName = keyof ConfigFromRouter<typeof $router>;

type Shown = ReturnType<typeof $router.get>;

/** The page whose record the app asked for before the page itself showed (at most once). */
let askedEarly: string | null = null;
const keyOf = (page: NonNullable<Shown>) => `${page.route} ${JSON.stringify(page.params)}`;

/**
 * Starts the first page's data as soon as the address is known, together with the session
 * check and the page's code (islands/app/App.tsx), instead of after both: on a slow link
 * each step one after another cost seconds. The server checks the session on every call, so
 * asking early shows nothing to a visitor who turns out not to be signed in (the app sends
 * them to sign in). The quote page's countries come alongside its quote (address cards, dialog).
 */
export function startRouteData(page: Shown) {
  if (!page) return;
  if (page.route === "orderDetails") {
    askedEarly = keyOf(page);
    void loadAccountOrder(page.params.id);
  }
  if (page.route === "quoteDetails") {
    askedEarly = keyOf(page);
    void loadAccountQuote(page.params.number);
    void loadCountries();
  }
}

/**
 * A page's own load on showing: skipped once when the app already asked for this page's
 * data (the answer is on its way into the store); every later showing loads afresh.
 */
export function loadUnlessStarted(page: Shown, load: () => void) {
  if (page && askedEarly === keyOf(page)) askedEarly = null;
  else load();
}
