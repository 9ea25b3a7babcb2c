import { painted } from "./paint.ts";

/*
 * The public order and quote pages' own painting: the not-found view and the account card's
 * 'Pay as Guest'. Apart from paint.ts, so the device page's script (which shares paint.ts
 * and has a 10 KB first-paint budget) does not carry them.
 */

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
export function guestPay(href: string | null, note: string | null, retitle = true) {
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
    if (retitle && title?.dataset["unpayable"]) title.textContent = title.dataset["unpayable"];
  }
  const why = document.getElementById("nothing-to-pay");
  if (why && note) {
    why.textContent = note;
    why.hidden = false;
  }
}
