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

/**
 * The load failed: the card gives way to the not-found message, and the intro and the
 * register card (about a record that is not there) go too.
 */
export function failed(card: HTMLElement, message: HTMLElement) {
  card.hidden = true;
  const heading = document.getElementById("record-heading");
  if (heading && message.dataset.heading) heading.textContent = message.dataset.heading;
  for (const el of document.querySelectorAll<HTMLElement>(".record-intro, #record-account")) el.hidden = true;
  message.hidden = false;
  message.focus();
  painted(card);
}

/**
 * The card's 'Pay as Guest' (its place was kept while loading): a link when the record can
 * be paid, otherwise gone, with a note saying why when there is one and a card title that
 * no longer asks for a payment.
 */
export function guestPay(href: string | null, note: string | null) {
  const slot = document.getElementById("guest-pay");
  const link = slot?.querySelector("a");
  if (slot && link && href) {
    link.href = href;
    link.removeAttribute("tabindex");
    link.removeAttribute("aria-disabled");
    // A link dressed as a button: Space presses it, as it would a button.
    link.addEventListener("keydown", (e) => {
      if (e.key === " ") {
        e.preventDefault();
        link.click();
      }
    });
    slot.dataset["state"] = "ready";
  } else if (slot) {
    slot.hidden = true;
    // Nothing to pay (a paid order, a closed quote): the card no longer offers a payment.
    const title = document.getElementById("account-card-title");
    if (title?.dataset["unpayable"]) title.textContent = title.dataset["unpayable"];
  }
  const why = document.getElementById("nothing-to-pay");
  if (why && note) {
    why.textContent = note;
    why.hidden = false;
  }
}

/** Elements with text, for lists the script builds. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
