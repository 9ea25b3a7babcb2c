import type { Address, LineItem } from "../../src/api/records.ts";
import { addressLines, NO_ADDRESS } from "../../src/domain/addressLines.ts";
import { cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { discountText } from "../../src/domain/lineItem.ts";
import {
  BLACK,
  contentWidth,
  GREY,
  labelValues,
  letterhead,
  openPdf,
  room,
  table,
  type Doc,
} from "./pdfDoc.ts";

// A quote as a PDF (pdfkit, the portal's shared letterhead and table): what a buyer files or
// forwards for approval. Dates arrive as text already in the spec's 'MMM DD, YYYY'.

export interface QuotePdfFacts {
  quoteNumber: string;
  quotedOn: string;
  /** 'MMM DD, YYYY', or 'Closed' (spec section 2). */
  validThrough: string;
  /** Why the validity line says what it says, e.g. 'Valid through Dec 22, 2026.' */
  validity: string;
  contactName: string | null;
  specialist: { name: string | null; phone: string | null; phoneExtension: string | null };
  shippingAddress: Address | null;
  billingAddress: Address | null;
  currency: number;
  lineItems: readonly LineItem[];
  /** Amounts in the quote's cents, as the contract carries them. */
  subtotal: number;
  tax: number;
  shipping: number;
  grandTotal: number;
  generatedAt: Date;
}

const MARGIN = 48;
/** The specialist as one line: 'Sam Rivera, +1 617 555 0100 ext. 214'. */
function specialistText(s: QuotePdfFacts["specialist"]): string {
  const phone = s.phone ? `${s.phone}${s.phoneExtension ? ` ext. ${s.phoneExtension}` : ""}` : null;
  return [s.name, phone].filter(Boolean).join(", ") || "-";
}

/** Shipping and billing addresses side by side. */
function addresses(doc: Doc, f: QuotePdfFacts) {
  room(doc, 120);
  const half = contentWidth(doc) / 2;
  const top = doc.y;
  let bottom = top;
  for (const [i, [title, address]] of (
    [
      ["Shipping Address", f.shippingAddress],
      ["Billing Address", f.billingAddress],
    ] as const
  ).entries()) {
    const x = MARGIN + i * half;
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(BLACK)
      .text(title, x, top, { width: half - 12 });
    const lines = addressLines(address, address?.country?.name);
    doc.font("Helvetica").fontSize(10);
    if (!lines.length) doc.fillColor(GREY).text(NO_ADDRESS, x).fillColor(BLACK);
    for (const line of lines) doc.text(line, x, undefined, { width: half - 12 });
    bottom = Math.max(bottom, doc.y);
  }
  doc.x = MARGIN;
  doc.y = bottom + 16;
}

const ITEM_COLUMNS = [
  { header: "Product", x: 0 },
  { header: "Description", x: 80 },
  { header: "Qty", x: 270, align: "right" as const },
  { header: "List price", x: 305, align: "right" as const },
  { header: "Discount", x: 375, align: "right" as const },
  { header: "Line total", x: 430, align: "right" as const },
];

/** The line items, then subtotal, tax, shipping and grand total right-aligned under them. */
function items(doc: Doc, f: QuotePdfFacts) {
  const money = (amount: number) => formatMoney(cents(amount), f.currency);
  const width = contentWidth(doc);
  const rows = f.lineItems.map((item) => [
    item.productNumber,
    item.description,
    String(item.quantity),
    money(item.listPriceCents),
    discountText(item.discount, f.currency),
    money(item.lineTotalCents),
  ]);
  table(doc, ITEM_COLUMNS, rows, { width });
  doc.moveDown(0.8);
  const totals = [
    { header: "", x: 0 },
    { header: "", x: 305, align: "right" as const },
    { header: "", x: 400, align: "right" as const },
  ];
  const sums: [string, number][] = [
    ["Subtotal", f.subtotal],
    ["Tax", f.tax],
    ["Shipping", f.shipping],
    ["Grand total", f.grandTotal],
  ];
  table(
    doc,
    totals,
    sums.map(([label, amount]) => ["", label, money(amount)]),
    { width, fontSize: 10, rowHeight: 15, header: false },
  );
}

/** The quote's PDF as bytes. */
export function quotePdf(f: QuotePdfFacts): Promise<Buffer> {
  const { doc, bytes } = openPdf({
    title: `Quote ${f.quoteNumber}`,
    createdAt: f.generatedAt,
    margin: MARGIN,
  });
  letterhead(doc, `Quote ${f.quoteNumber}`);
  labelValues(doc, [
    ["Quote number", f.quoteNumber],
    ["Quoted on", f.quotedOn],
    ["Valid through", f.validThrough],
    ["Contact", f.contactName ?? "-"],
    ["Product specialist", specialistText(f.specialist)],
  ]);
  doc.moveDown(1);
  addresses(doc, f);
  items(doc, f);
  doc.moveDown(1.5).font("Helvetica").fontSize(10).fillColor(BLACK).text(f.validity, MARGIN);
  doc.end();
  return bytes;
}
