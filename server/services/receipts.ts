import type { ReceiptFacts } from "./receiptMail.ts";
import { GREY, labelValues, letterhead, openPdf } from "./pdfDoc.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";

/** What the PDF says; `paidWith` names the card by brand and last four ("Visa ending in 4242") or the method. */
export type ReceiptPdfFacts = Omit<ReceiptFacts, "brand" | "last4"> & { paymentId: number; paidWith: string };

/** A payment's receipt as a one-page PDF (pdfkit, the portal's shared letterhead). */
export function receiptPdf(r: ReceiptPdfFacts): Promise<Buffer> {
  const at = epochSeconds(r.paidAt.getTime() / 1000);
  const { doc, bytes } = openPdf({
    title: `Receipt ${r.orderNumber}-${r.paymentId}`,
    createdAt: r.paidAt,
    margin: 56,
  });
  letterhead(doc, "Payment receipt");
  labelValues(doc, [
    ["Order", r.orderNumber],
    ["Payment", String(r.paymentId)],
    ["Paid on", `${formatDate(at)} ${formatTime(at)} UTC`],
    ["Amount paid", formatMoney(r.amount, r.currency)],
    ["Paid with", r.paidWith],
    ["Reference", r.reference],
  ]);
  doc.moveDown(2).fontSize(9).fillColor(GREY).text("Thank you for your order.", 56);
  doc.end();
  return bytes;
}
