import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { quoteDetails, quoteRecord } from "../data/quotes.ts";
import { fullQuote } from "../../src/api/quotes.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { privateResponse } from "../http/headers.ts";
import { idParam } from "../http/input.ts";
import { quotePdf } from "../services/quotePdf.ts";
import { downloadQuotePdf, quotePdfFileName } from "../../src/api/quotePdf.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDate } from "../../src/domain/dayText.ts";
import { CLOSED, isQuoteOpen } from "../../src/domain/quote.ts";

/** The validity sentence under the totals. */
function validity(open: boolean, expiresAt: number | null, now: number, zone: string) {
  if (!open) return "This quote is closed.";
  if (!expiresAt) return "This quote is valid until it is closed.";
  const day = formatDate(epochSeconds(expiresAt), zone);
  return expiresAt < now ? `This quote expired on ${day}.` : `This quote is valid through ${day}.`;
}

/**
 * GET /quote/requested-pdf/{quoteId}: a quote of the active subscription as a PDF attachment,
 * dates in the caller's time zone. Another subscription's quote is the same 404 as a missing one.
 */
export function quotePdfRoutes(deps: Deps) {
  const { db, now } = deps;
  return new Hono().get(downloadQuotePdf.path, guard(downloadQuotePdf, deps), privateResponse, async (c) => {
    const auth = authOf(c);
    const record = await quoteRecord(db, idParam(c, "quoteId"));
    if (!record) throw new ApiError(404, NOT_FOUND);
    inSubscription(auth, record.row);
    const t = now();
    const details = fullQuote(await quoteDetails(db, record, { full: true, now: t, memberPath: null }));
    if (!details) throw new ApiError(404, NOT_FOUND);
    const zone = auth.user.timezone;
    const open = isQuoteOpen(details.status);
    const pdf = await quotePdf({
      quoteNumber: details.quoteNumber,
      quotedOn: formatDate(epochSeconds(details.createdAt), zone),
      validThrough: open && details.expiresAt ? formatDate(epochSeconds(details.expiresAt), zone) : CLOSED,
      validity: validity(open, details.expiresAt, t.getTime() / 1000, zone),
      contactName: details.contactName,
      specialist: details.productSpecialist,
      shippingAddress: details.shippingAddress,
      billingAddress: details.billingAddress,
      currency: details.currency,
      lineItems: details.quoteLineItemList,
      subtotal: details.subtotalCents,
      tax: details.taxCents,
      shipping: details.shippingCostCents,
      grandTotal: details.grandTotalCents,
      generatedAt: t,
    });
    return c.body(new Uint8Array(pdf), 200, {
      "Content-Type": "application/pdf",
      // The number is QUO- and digits: nothing in the name needs quoting or encoding.
      "Content-Disposition": `attachment; filename="${quotePdfFileName(details.quoteNumber)}"`,
    });
  });
}
