import { getPagePath } from "@nanostores/router";
import { $router, type RouteName } from "../../src/stores/router.ts";
import { signOut } from "../../src/stores/session.ts";

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

/** The app's menu and its one "Sign out". */
export function AppNav({ current }: { current: RouteName | undefined }) {
  return (
    // site.css: on a phone the links wrap into rows and "Sign out" stays on screen.
    <nav aria-label="Account" className="app-nav">
      <ul>
        {LINKS.map(([route, label]) => (
          <li key={route}>
            <a href={getPagePath($router, route)} aria-current={route === current ? "page" : undefined}>
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
