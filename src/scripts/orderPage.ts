import { notYours } from "./notYours.ts";
import type { OrderDetails } from "../api/orders.ts";
import { PUBLIC_API } from "../api/paths.ts";
import { badgeFor } from "../domain/badges.ts";
import type { EpochSeconds } from "../domain/brand.ts";
import { formatDate, visitorZone } from "../domain/dayText.ts";
import { parsePublicOrderRef, publicOrderRef } from "../domain/order.ts";
import { payAsGuestPath } from "../domain/paths.ts";
import { badge, element, fill, painted, show } from "./paint.ts";
import { failed, guestPay } from "./recordPaint.ts";
import { getPublic, lastSegment } from "./publicData.ts";
import { paintTimeline } from "./timeline.ts";

/*
 * The public order page (/p/order/ORD-{id}-{validationId}): fetches the order and fills the
 * static card. React is not needed for that; the register card hydrates after this has
 * painted, and the shipment dialog's code loads when a tracking number is first pressed.
 */

const card = document.getElementById("order-card")!;
const notFound = document.getElementById("record-not-found")!;

function paint(o: OrderDetails, ref: string) {
  const zone = visitorZone();
  fill(document, "productFamily", o.productFamily);
  fill(card, "orderNumber", o.orderNumber);
  badge(card, "orderStatus", badgeFor("shipping", o.statusType));
  badge(card, "billingStatus", badgeFor("billing", o.billingStatus));
  fill(card, "placedOn", formatDate(o.createdAt as EpochSeconds, zone));
  fill(card, "shippingMethod", [o.shipCarrier, o.shipMethod].filter(Boolean).join(" ") || "-");
  paintTracking(o.trackingNumbers, ref);
  guestPay(o.payable ? payAsGuestPath("order", ref) : null, o.payable ? null : nothingToPay(o));
  const timeline = document.getElementById("order-timeline");
  const list = timeline?.querySelector("ol");
  if (timeline && list) {
    paintTimeline(list, o.timeline, zone);
    fill(timeline, "zone", zone);
    show(timeline);
  }
}

/** Why an order shows no 'Pay as Guest'. */
function nothingToPay(o: OrderDetails): string {
  if (o.billingStatus === "Paid") return "This order is paid. Thank you.";
  if (o.billingStatus === "Cancelled") return "This order was cancelled.";
  return "There is nothing to pay online for this order.";
}

function paintTracking(numbers: readonly string[], ref: string) {
  const list = card.querySelector<HTMLElement>('[data-field="trackingNumbers"]')!;
  if (!numbers.length) {
    list.replaceChildren(element("li", "None yet", "muted"));
    return;
  }
  list.replaceChildren(
    ...numbers.map((n) => {
      const button = element("button", n, "link");
      button.type = "button";
      button.setAttribute("aria-haspopup", "dialog");
      button.addEventListener("click", () => void openShipment(button, ref, n));
      const item = element("li");
      item.append(button);
      return item;
    }),
  );
}

let dialogCode: typeof import("../../islands/shipments/openShipmentDetails.tsx") | undefined;
/** The press whose dialog's code is still loading: Escape meanwhile, or a newer press, cancels it. */
let pending: object | null = null;

/**
 * The Shipment Details dialog, its code fetched the first time it opens. Until then the
 * number says it is busy, so a press on a slow link is seen at once, and Escape takes the
 * press back: a dialog must not pop up seconds after the person said no.
 */
async function openShipment(button: HTMLButtonElement, ref: string, trackingNumber: string) {
  const press = {};
  pending = press;
  button.setAttribute("aria-busy", "true");
  try {
    // Once loaded, the dialog opens in the task of the press (an import() of a loaded module
    // still waits for a task of its own), so an Escape right after finds it open.
    dialogCode ??= await import("../../islands/shipments/openShipmentDetails.tsx");
    if (pending !== press) return;
    pending = null;
    // What the dialog gives focus back to: a second click on the busy number (it takes no
    // pointer events) left focus on the page.
    button.focus();
    dialogCode.openShipmentDetails(ref, trackingNumber);
  } finally {
    button.removeAttribute("aria-busy");
  }
}

async function main() {
  const parsed = parsePublicOrderRef(lastSegment(location.pathname));
  if (!parsed) return failed(card, notFound);
  const ref = publicOrderRef(parsed.id, parsed.validationId);
  try {
    const { orderDetails } = await getPublic<{ orderDetails: OrderDetails }>(PUBLIC_API.order, { ref });
    // Spec section 4: a signed-in member sees the signed-in page instead.
    if (orderDetails.memberPath) return location.assign(orderDetails.memberPath);
    if (orderDetails.signedInElsewhere) notYours("order");
    paint(orderDetails, ref);
    painted(card);
  } catch {
    failed(card, notFound);
  }
}

/** Runs the page: called once by its Astro page. */
export function showOrder() {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") pending = null;
  });
  void main();
}
