/** Where this page is: what stores read of the address bar. */
export interface Place {
  origin: string;
  pathname: string;
  search: string;
}

/** How the browser moves; tests put a recorder in its place (`setNavigation`). */
export interface Navigation {
  here(): Place;
  /** Opens another page (a history entry). */
  assign(url: string): void;
  /** Opens another page in place of this one (no history entry). */
  replace(url: string): void;
  reload(): void;
}

const browser: Navigation = {
  here: () =>
    typeof location === "undefined"
      ? { origin: "", pathname: "/", search: "" }
      : { origin: location.origin, pathname: location.pathname, search: location.search },
  assign: (url) => location.assign(url),
  replace: (url) => location.replace(url),
  reload: () => location.reload(),
};

let active: Navigation = browser;

/**
 * The one module that touches `location`, so stores can be tested without a browser:
 * a test passes its recorder, `null` puts the browser's location back.
 */
export function setNavigation(navigation: Navigation | null) {
  active = navigation ?? browser;
}

/** This page's origin, path and query. */
export const here = (): Place => active.here();
/** This page's path and query, e.g. for a `next` parameter. */
export const currentPath = (): string => here().pathname + here().search;
/** One parameter of this page's query, or null. */
export const queryParam = (name: string): string | null => new URLSearchParams(here().search).get(name);
/** Goes to another page. */
export const go = (url: string) => active.assign(url);
/** Goes to another page, leaving this one out of the history (redirects). */
export const replaceWith = (url: string) => active.replace(url);
/** Loads this page again (the spec's "reload" after signing in). */
export const reload = () => active.reload();
