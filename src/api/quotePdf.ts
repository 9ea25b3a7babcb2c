import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";

/*
 * The quote's PDF (spec section 7, "Signed-in quote and order calls"; web host): made on the
 * server for a quote of the active subscription. The answer is the file, not the JSON
 * envelope; a malformed id is a 400, another subscription's or a missing quote a 404.
 */

/** The file name the PDF is saved under: the quote's number. */
export const quotePdfFileName = (quoteNumber: string) => `${quoteNumber}.pdf`;

export const downloadQuotePdf = endpoint({
  method: "get",
  path: "/quote/requested-pdf/:quoteId",
  host: "web",
  body: "none",
  request: undefined,
  response: z.string(),
  summary:
    "A quote of the active subscription as a PDF attachment (application/pdf, named QUO-{id}.pdf): letterhead, number, quoted-on and valid-through dates (or Closed), addresses, product specialist, line items with discounts, subtotal, tax, shipping, grand total and validity.",
});
