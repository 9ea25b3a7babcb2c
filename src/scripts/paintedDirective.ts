import type { ClientDirective } from "astro";

const PAINTED = "portal:painted";
/** Hydrate anyway when no page script says it has painted (a page without one, or a failure). */
const FALLBACK_MS = 8000;
/**
 * The longest wait for an idle moment once painted. Without one, a page with nothing moving
 * may never get its idle callback (headless Chromium gave none in minutes on the order page
 * once its Register button stopped spinning before hydration), and the card never hydrated.
 */
const IDLE_TIMEOUT_MS = 1000;

/**
 * `client:painted`: an island that hydrates once the page's painting script has filled in the
 * record (its `portal:painted` event), then when the browser is idle. On a slow link the
 * record's data and the small painting script go first; React follows instead of competing
 * with them for the same bandwidth. A visitor who reaches for the island first (focus, a
 * press, a key) has said what matters to them: it starts hydrating at once.
 */
const painted: ClientDirective = (load, _options, el) => {
  let started = false;
  const hydrate = () => {
    if (started) return;
    started = true;
    const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 1));
    idle(async () => (await load())(), { timeout: IDLE_TIMEOUT_MS });
  };
  const now = () => {
    if (started) return;
    started = true;
    void load().then((run) => run());
  };
  for (const type of ["focusin", "pointerdown", "keydown"])
    el.addEventListener(type, now, { once: true, capture: true });
  if (document.documentElement.dataset["painted"] === "1") hydrate();
  else {
    window.addEventListener(PAINTED, hydrate, { once: true });
    setTimeout(hydrate, FALLBACK_MS);
  }
};
export default painted;
