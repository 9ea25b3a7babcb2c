import { useSyncExternalStore } from "react";

/** Nothing to subscribe to: the answer changes once, when React takes over the page. */
const noChanges = () => () => {};

/**
 * False while the server renders and during hydration (React uses the server snapshot so
 * the first client render matches the HTML), true right after; a component mounted later
 * by the client gets true at once, so it never flashes a loading state.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}
