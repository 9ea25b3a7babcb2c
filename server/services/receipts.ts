import PdfKit from "pdfkit";
import type { ReceiptFacts } from "./receiptMail.ts";
import { formatDate, formatTime } from "../../src/domain/dayText.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";

/** What the PDF says; `paidWith` names the card by brand and last four ("Visa ending in 4242") or the method. */
export type ReceiptPdfFacts = Omit<ReceiptFacts, "brand" | "last4"> & { paymentId: number; paidWith: string };

/** A payment's receipt as a one-page PDF (pdfkit). */
export function receiptPdf(r: ReceiptPdfFacts): Promise<Buffer> {
  const at = epochSeconds(r.paidAt.getTime() / 1000);
  const doc = new PdfKit({
    size: "A4",
    margin: 56,
    info: {
      Title: `Receipt ${r.orderNumber}-${r.paymentId}`,
      Author: "Device Portal",
      CreationDate: r.paidAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(20).text("Payment receipt");
  doc.font("Helvetica").fontSize(11).fillColor("#555").text("Device Portal").moveDown(1.5).fillColor("#000");
  const rows: [string, string][] = [
    ["Order", r.orderNumber],
    ["Payment", String(r.paymentId)],
    ["Paid on", `${formatDate(at)} ${formatTime(at)} UTC`],
    ["Amount paid", formatMoney(r.amount, r.currency)],
    ["Paid with", r.paidWith],
    ["Reference", r.reference],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font("Helvetica-Bold").text(label, 56, y, { width: 140 });
    doc.font("Helvetica").text(value, 200, y);
    doc.moveDown(0.6);
  }
  doc.moveDown(2).fontSize(9).fillColor("#555").text("Thank you for your order.", 56);
  doc.end();
  return done;
}
