import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { APP_SECTIONS } from "../../src/domain/appSections.ts";
import { $router, type RouteName } from "../../src/stores/router.ts";
import { $session, signOut } from "../../src/stores/session.ts";
import { sessionMay } from "../../src/stores/tags.ts";

/** The signed-in places, in menu order. */
const LINKS = [
  ["home", "Home"],
  ["alerts", "Alerts"],
  ["devices", "Devices"],
  ["tags", "Tags"],
  ["reports", "Reports"],
  ["quotes", "Quotes"],
  ["orders", "Orders"],
  ["settings", "Settings"],
  ["security", "Security"],
] as const satisfies readonly (readonly [RouteName, string])[];

/**
 * The audit trail's link, for the people who may read it (the server refuses everyone else);
 * not on a phone, where the Security page links to it (site.css).
 */
const AUDIT = ["audit", "Audit"] as const satisfies readonly [RouteName, string];

/** The app's menu and its one "Sign out". */
export function AppNav({ current }: { current: RouteName | undefined }) {
  useStore($session);
  const links = sessionMay("audit.view") ? [...LINKS, AUDIT] : LINKS;
  const section = current && APP_SECTIONS[current];
  // The page's own entry is "page"; the entry it lives under is "true" (the current section),
  // bold only where the page's own entry is not on screen (site.css).
  const marked = (route: RouteName) => (route === current ? "page" : route === section ? "true" : undefined);
  return (
    // site.css: on a phone the links wrap into rows and "Sign out" stays on screen.
    <nav aria-label="Account" className="app-nav">
      <ul>
        {links.map(([route, label]) => (
          <li key={route} className={route === "audit" ? "wide-only" : undefined}>
            <a href={getPagePath($router, route)} aria-current={marked(route)}>
              {label}
            </a>
          </li>
        ))}
      </ul>
      <ul>
        <li>
          <button type="button" className="secondary outline" onClick={() => void signOut()}>
            Sign out
          </button>
        </li>
      </ul>
    </nav>
  );
}
