import type { Mail } from "./mail.ts";
import type { Cents } from "../../src/domain/brand.ts";
import { formatDate } from "../../src/domain/dayText.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";

/** What a receipt says: the card only as its brand and last four digits. */
export interface ReceiptFacts {
  orderNumber: string;
  amount: Cents;
  currency: number;
  brand: string;
  last4: string;
  paidAt: Date;
  reference: string;
}

/** The card as a receipt names it. */
export const cardText = (r: Pick<ReceiptFacts, "brand" | "last4">) => `${r.brand} ending in ${r.last4}`;

/**
 * The mailed receipt: amount, card, order number, the order's link and the receipt PDF's link
 * (both built from configuration).
 */
export function receiptMail(to: string, r: ReceiptFacts, orderLink: string, pdfLink: string): Mail {
  return {
    to,
    subject: `Your payment receipt for order ${r.orderNumber}`,
    text: [
      "Thank you for your payment.",
      "",
      `Order: ${r.orderNumber}`,
      `Amount paid: ${formatMoney(r.amount, r.currency)}`,
      `Card: ${cardText(r)}`,
      `Paid on: ${formatDate(epochSeconds(r.paidAt.getTime() / 1000))} (UTC)`,
      `Reference: ${r.reference}`,
      "",
      "Your order and its shipments:",
      orderLink,
      "",
      "This receipt as a PDF:",
      pdfLink,
      "",
      "Keep this link to yourself: anyone who has it can see the order.",
    ].join("\n"),
  };
}
