import type { EpochSeconds } from "./brand.ts";
import { formatDate } from "./dayText.ts";

export const QUOTE_PREFIX = "QUO-";
export const CLOSED = "Closed";

/** Quote status Closed is the only closed value (spec section 9). */
export function isQuoteOpen(status: string | null | undefined): boolean {
  return status !== CLOSED;
}

/** 'Expires at {MMM DD, YYYY}' unless closed or without expiry, then 'Closed'. */
export function quoteStatusLabel(
  quote: { status: string | null; expiresAt: EpochSeconds | null },
  zone?: string,
): string {
  if (!isQuoteOpen(quote.status) || !quote.expiresAt) return CLOSED;
  return `Expires at ${formatDate(quote.expiresAt, zone)}`;
}

/** QUO- plus id. */
export function quoteNumber(id: number): string {
  return `${QUOTE_PREFIX}${id}`;
}

/** Reads "QUO-123" or "123" into the id; null for anything else. */
export function parseQuoteNumber(text: string): number | null {
  const m = /^(?:QUO-)?(\d{1,12})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/** A quote can be paid while open, unexpired, not yet ordered and worth something. */
export function quotePayable(
  quote: {
    status: string | null;
    expiresAt: EpochSeconds | null;
    orderId: number | null;
    grandTotal: number;
  },
  nowSeconds: number,
): boolean {
  return (
    isQuoteOpen(quote.status) &&
    quote.orderId === null &&
    quote.grandTotal > 0 &&
    (quote.expiresAt === null || quote.expiresAt > nowSeconds)
  );
}

/** The spec's shippingDetailsString: carrier and method in one line ("UPS Ground"), empty for neither. */
export function shippingDetailsString(carrier: string | null, method: string | null): string {
  return [carrier, method].filter((part) => part?.trim()).join(" ");
}
