import type { Badge } from "../domain/badges.ts";

/*
 * The few DOM steps the painting scripts need: fill a `data-field`, show a hidden part, set a
 * badge. The static shell holds every label; a script only writes values.
 */

const PAINTED = "portal:painted";

export function field(root: ParentNode, name: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(`[data-field="${name}"]`);
  if (!el) throw new Error(`No data-field ${name}`);
  return el;
}

export function fill(root: ParentNode, name: string, text: string) {
  field(root, name).textContent = text;
}

export function badge(root: ParentNode, name: string, b: Badge) {
  const el = field(root, name);
  el.textContent = b.label;
  el.className = `badge badge-${b.tone}`;
}

export function show(el: HTMLElement | null, visible = true) {
  if (el) el.hidden = !visible;
}

/** The record is on screen: the card stops being busy and the waiting islands may hydrate. */
export function painted(card: HTMLElement) {
  card.removeAttribute("aria-busy");
  // The budget test and the bench measure up to here.
  performance.mark(PAINTED);
  document.documentElement.dataset["painted"] = "1";
  window.dispatchEvent(new Event(PAINTED));
}

/** Elements with text, for lists the script builds. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
