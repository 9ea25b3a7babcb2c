import { notYours } from "./notYours.ts";
import { PUBLIC_API } from "../api/paths.ts";
import type { QuoteDetails } from "../api/quotes.ts";
import type { EpochSeconds } from "../domain/brand.ts";
import { formatDate, visitorZone } from "../domain/dayText.ts";
import { payAsGuestPath } from "../domain/paths.ts";
import { quoteStatusLabel } from "../domain/quote.ts";
import { fill, painted, show } from "./paint.ts";
import { failed, guestPay } from "./recordPaint.ts";
import { getPublic, lastSegment } from "./publicData.ts";

/*
 * The public quote page (/p/quote/QUO-{n} or /p/quote/{token}): fetches the quote and fills
 * the static card. Only the token link can pay: QUO-{n} is a sequential number.
 */

const card = document.getElementById("quote-card")!;
const notFound = document.getElementById("record-not-found")!;

function paint(q: QuoteDetails) {
  const zone = visitorZone();
  fill(document, "productFamily", q.productFamily);
  fill(card, "quoteNumber", q.quoteNumber);
  fill(
    card,
    "status",
    quoteStatusLabel({ status: q.status, expiresAt: q.expiresAt as EpochSeconds | null }, zone),
  );
  fill(card, "created", formatDate(q.createdAt as EpochSeconds, zone));
  fill(card, "expires", q.expiresAt ? formatDate(q.expiresAt as EpochSeconds, zone) : "-");
  const payable = q.payable && q.guestToken !== null;
  // A quote opened by its number may still be ordered (after signing in): only a closed or
  // expired one drops 'Place your Order'.
  const over = !q.isOpen || (q.expiresAt !== null && q.expiresAt * 1000 <= Date.now());
  guestPay(payable ? payAsGuestPath("quote", q.guestToken!) : null, payable ? null : nothingToPay(q), over);
  if (q.isOpen && !q.guestToken && !expired(q)) show(document.getElementById("guest-pay-hint"));
}

const expired = (q: QuoteDetails) => q.expiresAt !== null && q.expiresAt * 1000 < Date.now();

/** Why a quote shows no 'Pay as Guest' (null when only its token link is missing). */
function nothingToPay(q: QuoteDetails): string | null {
  if (!q.isOpen) return "This quote is closed.";
  if (expired(q)) return "This quote has expired. Ask your product specialist for a new one.";
  return null;
}

async function main() {
  const id = lastSegment(location.pathname);
  if (!id) return failed(card, notFound);
  try {
    const { quoteDetails } = await getPublic<{ quoteDetails: QuoteDetails }>(PUBLIC_API.quote, { id });
    // Spec section 4: a signed-in member sees the signed-in page instead.
    if (quoteDetails.memberPath) return location.assign(quoteDetails.memberPath);
    if (quoteDetails.signedInElsewhere) notYours("quote");
    paint(quoteDetails);
    painted(card);
  } catch {
    failed(card, notFound);
  }
}

/** Runs the page: called once by its Astro page. */
export function showQuote() {
  void main();
}
